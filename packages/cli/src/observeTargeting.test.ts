import { describe, expect, it } from 'vitest';
import { parseBatch, runBatch, type BatchRunner } from './batch.js';
import { resolveCallTarget, targetFlagsByPosition } from './callTarget.js';
import { RelayError } from '@chrome-relay/protocol';

describe('targets on the command line', () => {
  it('splits target flags by position around the command name', () => {
    expect(targetFlagsByPosition(['node', 'cli', '--timeout', '5000', '--workspace', 'w', 'screenshot', '--tab=4'])).toEqual({ before: { workspace: 'w' }, after: { tab: 4 } });
    expect(targetFlagsByPosition(['node', 'cli', 'network', 'body', 'id1', '--group', 'g'])).toEqual({ before: {}, after: { group: 'g' } });
  });

  it('a command-level target replaces a program-level one with a notice; same level twice conflicts', () => {
    expect(resolveCallTarget({ workspace: 'w' }, { tab: 4 })).toMatchObject({ tab: 4, notice: { notice: 'target_overridden' } });
    expect(resolveCallTarget({ tab: 4 }, { workspace: 'w' })).toMatchObject({ target: { workspace: 'w' }, notice: { notice: 'target_overridden' } });
    expect(resolveCallTarget({ workspace: 'w' }, {})).toEqual({ target: { workspace: 'w' } });
    expect(resolveCallTarget({}, { group: 'g' })).toEqual({ target: { group: 'g' } });
    expect(resolveCallTarget({ tab: 4 }, { tab: 4 })).toEqual({ tab: 4 });
    try {
      resolveCallTarget({}, { tab: 4, workspace: 'w' });
      expect.unreachable();
    } catch (error) {
      expect((error as RelayError).toData()).toMatchObject({ code: 'target_conflict', phase: 'cli', details: { reason: 'multiple_targets' } });
    }
  });

  it('--tab means the same before and after the command: the tool\'s tab param', () => {
    expect(resolveCallTarget({ tab: 4 }, {})).toEqual({ tab: 4 });
    expect(resolveCallTarget({}, { tab: 4 })).toEqual({ tab: 4 });
    const { before, after } = targetFlagsByPosition(['node', 'cli', '--tab', '7', 'click', '@e1']);
    expect(resolveCallTarget(before, after)).toEqual({ tab: 7 });
  });
});

describe('batch', () => {
  it('validates steps precisely', () => {
    expect(() => parseBatch('nope')).toThrow(/not JSON/);
    expect(() => parseBatch('[{"command":"tabs","extra":1}]')).toThrow(/unknown key "extra"/);
    expect(() => parseBatch('[{"tool":"nope"}]')).toThrow(/unknown tool/);
    expect(() => parseBatch('[{"command":"batch"}]')).toThrow(/another batch/);
    expect(() => parseBatch('[{"tool":"restart_host"}]')).toThrow(/only chrome-relay's own commands use/);
    expect(parseBatch('[{"command":"click","args":["@e1"]},{"tool":"tabs"}]')).toHaveLength(2);
  });

  it('stops at the first failure unless bail is off, each result with its own code', async () => {
    const runner: BatchRunner = {
      runCommand: async (args) =>
        args[0] === 'bad'
          ? { code: 1, stdout: '', stderr: `x\n${JSON.stringify({ relayError: new RelayError('stale_ref', 'gone').toData() })}\n` }
          : { code: 0, stdout: '{"fine":true}', stderr: '' },
      runTool: async () => ({ tool: true }),
    };
    const steps = parseBatch('[{"command":"ok"},{"command":"bad"},{"tool":"tabs"}]');
    const bailed = await runBatch(steps, true, runner);
    expect(bailed).toMatchObject({ ok: false, stoppedAt: 1, results: [{ ok: true, result: { fine: true } }, { ok: false, error: { code: 'stale_ref' } }] });
    expect((await runBatch(steps, false, runner)).results).toHaveLength(3);
  });
});

describe('argv positions', () => {
  it('the command starts after program options and their values, for every reader alike', async () => {
    const { commandIndexOf, commandWordsOf } = await import('./argvScan.js');
    const argv = ['node', 'cli', '--group', 'batch', '--timeout', '5000', 'batch', '--no-bail'];
    // A group named "batch" is not the batch command: the steps get `--group batch --timeout 5000`.
    expect(commandIndexOf(argv)).toBe(6);
    expect(commandWordsOf(argv)).toEqual(['batch']);
    expect(targetFlagsByPosition(argv)).toEqual({ before: { group: 'batch' }, after: {} });
    expect(targetFlagsByPosition(['node', 'cli', 'click', '@e1', '--tab=3'])).toEqual({ before: {}, after: { tab: 3 } });
  });
});
