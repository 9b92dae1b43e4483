import { describe, expect, it } from 'vitest';
import { agentOf, AGENT_ENV } from './globalOptions.js';
import { failureIn } from './testing/relayFailure.js';

describe('agentOf', () => {
  it('takes --agent, else the environment; empty means none', () => {
    expect(agentOf({ agent: 'ci-bot@host.1' }, { [AGENT_ENV]: 'other' })).toBe('ci-bot@host.1');
    expect(agentOf({}, { [AGENT_ENV]: 'from-env' })).toBe('from-env');
    expect(agentOf({ agent: '' }, { [AGENT_ENV]: 'from-env' })).toBeUndefined();
    expect(agentOf({}, {})).toBeUndefined();
  });

  it('refuses an identity the host would reject, naming the flag or the variable that gave it', () => {
    const flag = failureIn(() => agentOf({ agent: 'two words' }, {}));
    expect(flag.code).toBe('invalid_arguments');
    expect(flag.phase).toBe('cli');
    expect(flag.message).toMatch(/^--agent must be/);
    expect(flag.details).toMatchObject({ field: 'agent' });
    expect(failureIn(() => agentOf({}, { [AGENT_ENV]: 'x'.repeat(65) })).details).toMatchObject({ field: AGENT_ENV });
    expect(failureIn(() => agentOf({ agent: 'a\nb' }, {})).message).not.toContain('\n');
  });
});
