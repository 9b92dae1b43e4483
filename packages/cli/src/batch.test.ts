import { describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { OPERATOR_COMMANDS, parseBatch } from './batch.js';
import { HAND_WRITTEN } from './program.js';

function failure(run: () => unknown): RelayError {
  try {
    run();
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected a RelayError');
}

describe('parseBatch', () => {
  it('refuses every setup command as a step (a browser started from stdin JSON, an install, a host swap)', () => {
    for (const command of OPERATOR_COMMANDS) {
      const error = failure(() => parseBatch(JSON.stringify([{ command: 'tabs' }, { command, args: ['--headless'] }])));
      expect(error.code).toBe('invalid_arguments');
      expect(error.details).toMatchObject({ field: 'stdin.1' });
      expect(error.message).toContain(`chrome-relay ${command}\` by itself`);
    }
  });

  it('knows every setup command, and refuses a server or a batch inside a batch', () => {
    const setup = HAND_WRITTEN.find((module) => module.names.includes('launch'));
    expect([...(setup?.names ?? []), 'mcp'].sort()).toEqual([...OPERATOR_COMMANDS].sort());
  });

  it('still takes agent commands and tools, and refuses internal tools', () => {
    expect(parseBatch('[{"command":"click","args":["@e1"]},{"tool":"snapshot"}]')).toEqual([{ command: 'click', args: ['@e1'] }, { tool: 'snapshot' }]);
    expect(failure(() => parseBatch('[{"tool":"restart_host"}]')).details).toMatchObject({ field: 'stdin.0' });
  });
});
