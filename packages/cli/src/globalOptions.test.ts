import { describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { agentOf, AGENT_ENV } from './globalOptions.js';

function failure(run: () => unknown): RelayError {
  try {
    run();
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected a RelayError');
}

describe('agentOf', () => {
  it('takes --agent, else the environment; empty means none', () => {
    expect(agentOf({ agent: 'ci-bot@host.1' }, { [AGENT_ENV]: 'other' })).toBe('ci-bot@host.1');
    expect(agentOf({}, { [AGENT_ENV]: 'from-env' })).toBe('from-env');
    expect(agentOf({ agent: '' }, { [AGENT_ENV]: 'from-env' })).toBeUndefined();
    expect(agentOf({}, {})).toBeUndefined();
  });

  it('refuses an identity the host would reject, naming the flag or the variable that gave it', () => {
    const flag = failure(() => agentOf({ agent: 'two words' }, {}));
    expect(flag.code).toBe('invalid_arguments');
    expect(flag.phase).toBe('cli');
    expect(flag.message).toMatch(/^--agent must be/);
    expect(flag.details).toMatchObject({ field: 'agent' });
    expect(failure(() => agentOf({}, { [AGENT_ENV]: 'x'.repeat(65) })).details).toMatchObject({ field: AGENT_ENV });
    expect(failure(() => agentOf({ agent: 'a\nb' }, {})).message).not.toContain('\n');
  });
});
