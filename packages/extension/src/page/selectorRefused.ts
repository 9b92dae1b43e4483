/**
 * An agent's CSS selector the page refused to match (injected/selectors.ts), as the error every tool that takes one
 * answers: invalid_arguments on the field that held it, with the reason in the agent's terms.
 */
import { RelayError, toolLabel } from '@chrome-relay/protocol';
import type { SelectorRefusal } from '../injected/selectors.js';

export function selectorRefused(tool: string, field: string, selector: string, refusal: SelectorRefusal, details: Record<string, unknown> = {}): RelayError {
  const why =
    refusal.status === 'bad_selector'
      ? `is not valid CSS: ${refusal.message}`
      : "tests the value attribute, and a password or one-time-code field on this page carries one: chrome-relay never matches a selector against a secret's value (it would tell the value letter by letter). Select by id, name, type or other attributes, or use a ref from a snapshot";
  return new RelayError('invalid_arguments', `Invalid arguments for ${toolLabel(tool)}: selector ${JSON.stringify(selector)} ${why}.`, {
    tool,
    phase: 'validate',
    details: { field, selector, ...details, ...(refusal.status === 'secret_selector' ? { secret: true } : {}) },
  });
}
