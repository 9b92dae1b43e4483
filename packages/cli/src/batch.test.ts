import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WAIT_REPORT_MS } from '@chrome-relay/protocol';
import { OPERATOR_COMMANDS, parseBatch, processRunner, stepLabel } from './batch.js';
import { HAND_WRITTEN } from './program.js';
import { startFakeHost } from './testing/fakeHost.js';
import { failureIn } from './testing/relayFailure.js';

describe('parseBatch', () => {
  it('refuses every setup command as a step (a browser started from stdin JSON, an install, a host swap)', () => {
    for (const command of OPERATOR_COMMANDS) {
      const error = failureIn(() => parseBatch(JSON.stringify([{ command: 'tabs' }, { command, args: ['--headless'] }])));
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
    expect(failureIn(() => parseBatch('[{"tool":"restart_host"}]')).details).toMatchObject({ field: 'stdin.0' });
  });
});

describe('processRunner', () => {
  it("gives a wait step the call deadline around its own budget, as the wait command has (WAIT_REPORT_MS)", async () => {
    const home = mkdtempSync(join(tmpdir(), 'cr-batch-home-'));
    const saved = process.env.CHROME_RELAY_HOME;
    process.env.CHROME_RELAY_HOME = home;
    const host = await startFakeHost({ home, pid: process.pid });
    try {
      const runner = processRunner('unused', [], { home, profile: undefined, timeoutMs: 30_000, json: false });
      await runner.runTool('wait', { text: 'Done', timeoutMs: 45_000 }).catch(() => undefined);
      expect(host.requests.at(-1)).toMatchObject({ tool: 'wait', params: { timeoutMs: 45_000 }, timeoutMs: 45_000 + WAIT_REPORT_MS });
    } finally {
      await host.close();
      if (saved === undefined) delete process.env.CHROME_RELAY_HOME;
      else process.env.CHROME_RELAY_HOME = saved;
    }
  });
});

describe('stepLabel', () => {
  it('names a step by its command, flags and refs, never by the values typed (a password, a URL with a token)', () => {
    expect(stepLabel('fill', ['@e5', 'hunter2'])).toBe('fill @e5 …');
    expect(stepLabel('type', ['-s', '@e7', 'secret text'])).toBe('type -s @e7 …');
    expect(stepLabel('navigate', ['https://a.test/?access_token=x', '--wait', 'load'])).toBe('navigate … --wait …');
    expect(stepLabel('fill', ['@e5', '--', '-dash-password'])).toBe('fill @e5 -- …');
    expect(stepLabel('get', ['attr', '--selector=#pw'])).toBe('get … --selector=…');
    expect(stepLabel('snapshot', [])).toBe('snapshot');
  });

  it('shows a ref only as the one grammar reads one: a value that merely looks like a ref is a value', () => {
    expect(stepLabel('click', ['@e1234'])).toBe('click @e1234');
    for (const value of ['@e0', '@e012', `@e${'9'.repeat(16)}`, 'e5']) expect(stepLabel('fill', ['@e5', value]), value).toBe('fill @e5 …');
  });
});
