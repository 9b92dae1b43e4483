/**
 * Field schemas several tools share, defined once: a tab id, a ref, readiness, names and agent
 * identities. Tool entries (tools.ts, tools/*.ts) use these instead of declaring their own copies.
 * Each is built on first use (lazy.ts).
 */
import * as z from 'zod';
import { lazy } from './lazy.js';
import { parseRef, REF_INPUT_PATTERN, REF_RULE } from './refs.js';

export const TabIdField = lazy(() => z.number().int().positive().describe('Tab id (from `chrome-relay tabs`); default: the tab this agent last used (one per --agent / CHROME_RELAY_AGENT; a ref carries its own tab)'));
/** `@e12` or `e12` (refs.ts), carried on as the wire form `e12`. */
export const RefField = lazy(() =>
  z
    .string()
    .regex(REF_INPUT_PATTERN, `must be ${REF_RULE}`)
    .overwrite((text) => parseRef(text) ?? text)
    .describe('Element ref from a snapshot'),
);
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
