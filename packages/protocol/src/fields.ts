/**
 * Field schemas several tools share, defined once: a tab id, a ref, readiness, names and agent
 * identities. Tool entries (tools.ts, tools/*.ts) use these instead of declaring their own copies.
 */
import * as z from 'zod';

export const TabIdField = z.number().int().positive().describe('Tab id (from `chrome-relay tabs`); default: the tab chrome-relay last used (a ref carries its own tab)');
export const RefField = z.string().regex(/^e[1-9][0-9]*$/, 'must be a ref like e12 (written @e12 on the command line)').describe('Element ref from a snapshot');
export const WaitUntilField = z.enum(['commit', 'domcontentloaded', 'load', 'none']).describe('Readiness to wait for (default load)');
/** The longest readiness wait; the call's own deadline (--timeout) cuts it shorter. */
export const MAX_READINESS_MS = 120_000;
export const ReadinessTimeoutField = z
  .number()
  .int()
  .positive()
  .max(MAX_READINESS_MS)
  .describe('How long to wait for readiness before answering ready:false (default 20000, never past the call deadline)');
export const NameField = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w.-]+$/, 'must be letters, digits, "_", "." or "-"')
  .describe('Name (letters, digits, _ . -)');
export const AgentField = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w.@-]+$/, 'must be letters, digits, "_", ".", "@" or "-"')
  .describe('Agent identity (--agent or CHROME_RELAY_AGENT)');
export const HealedField = z.boolean().describe('The element had been re-rendered and was re-found by identity before acting');
