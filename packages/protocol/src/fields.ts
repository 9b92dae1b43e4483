/**
 * Field schemas several tools share, defined once: a tab id, a ref, readiness, names and agent
 * identities. Tool entries (tools.ts, tools/*.ts) use these instead of declaring their own copies.
 * Each is built on first use (lazy.ts).
 */
import * as z from 'zod';
import { lazy } from './lazy.js';

export const TabIdField = lazy(() => z.number().int().positive().describe('Tab id (from `chrome-relay tabs`); default: the tab chrome-relay last used (a ref carries its own tab)'));
export const RefField = lazy(() => z.string().regex(/^e[1-9][0-9]*$/, 'must be a ref like e12 (written @e12 on the command line)').describe('Element ref from a snapshot'));
export const WaitUntilField = lazy(() => z.enum(['commit', 'domcontentloaded', 'load', 'none']).describe('Readiness to wait for (default load)'));
/** The longest readiness wait; the call's own deadline (--timeout) cuts it shorter. */
export const MAX_READINESS_MS = 120_000;
export const ReadinessTimeoutField = lazy(() =>
  z
    .number()
    .int()
    .positive()
    .max(MAX_READINESS_MS)
    .describe('How long to wait for readiness before answering ready:false (default 20000, never past the call deadline)'),
);
export const NameField = lazy(() =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w.-]+$/, 'must be letters, digits, "_", "." or "-"')
    .describe('Name (letters, digits, _ . -)'),
);
export const AgentField = lazy(() =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w.@-]+$/, 'must be letters, digits, "_", ".", "@" or "-"')
    .describe('Agent identity (--agent or CHROME_RELAY_AGENT)'),
);
export const HealedField = lazy(() => z.boolean().describe('The element had been re-rendered and was re-found by identity before acting'));
