import { describe, expect, it } from 'vitest';
import { formatErrorForStderr, RelayError } from '../../packages/protocol/src/index.js';
import { checkExpectation, checkOutcome, type Outcome } from './contract.js';

const outcome = (overrides: Partial<Outcome>): Outcome => ({ code: 0, signal: null, stdout: '{}\n', stderr: '', ms: 10, timedOut: false, ...overrides });
const failure = (error: RelayError, notice = ''): Outcome => outcome({ code: 1, stdout: '', stderr: `${notice}${formatErrorForStderr(error.toData())}` });
const kinds = (o: Outcome) => checkOutcome(o).violations.map((v) => v.kind);

describe('checkOutcome', () => {
  it('accepts a success that printed, and a failure as one human line plus a valid block (notices aside)', () => {
    expect(kinds(outcome({}))).toEqual([]);
    const stale = new RelayError('stale_ref', 'Ref e5 is stale.', { tool: 'click', phase: 'resolve', details: { reason: 'vanished' } });
    expect(kinds(failure(stale))).toEqual([]);
    expect(kinds(failure(stale, '{"relayNotice":{"notice":"deprecated","message":"x"}}\n'))).toEqual([]);
    expect(checkOutcome(failure(stale)).error?.code).toBe('stale_ref');
  });

  it('flags hangs, signals, stack traces, internal errors, silent successes', () => {
    expect(kinds(outcome({ timedOut: true, code: null, signal: 'SIGKILL' }))).toContain('hang');
    expect(kinds(outcome({ code: null, signal: 'SIGSEGV' }))).toEqual(['exit_code']);
    expect(kinds(outcome({ code: 2 }))).toEqual(['exit_code']);
    expect(kinds(outcome({ stdout: 'TypeError: x\n    at Object.<anonymous> (/x/cli.cjs:10:5)\n' }))).toEqual(['stack_trace']);
    expect(kinds(outcome({ stdout: '' }))).toEqual(['silent_success']);
    expect(kinds(failure(new RelayError('internal_error', 'bug', { tool: 'x', phase: 'cli' })))).toEqual(['internal_error']);
  });

  it('flags a failure without its block, with two human lines, or with a reason outside the list', () => {
    expect(kinds(outcome({ code: 1, stdout: '', stderr: 'error: something\n' }))).toEqual(expect.arrayContaining(['error_block', 'human_line']));
    const good = failure(new RelayError('invalid_arguments', 'bad', { tool: 'x', phase: 'cli' }));
    expect(kinds({ ...good, stderr: `warning: extra\n${good.stderr}` })).toEqual(['human_line']);
    expect(kinds(failure(new RelayError('timeout', 'slow', { tool: 'x', phase: 'act', details: { reason: 'made_up' } })))).toEqual(['error_block']);
    expect(kinds(failure(new RelayError('timeout', 'slow', { tool: 'x', phase: 'act' })))).toEqual(['error_block']);
  });

  it('checks a directed case\'s expectation', () => {
    const o = failure(new RelayError('target_not_found', 'no such profile', { tool: 'tabs', phase: 'connect', details: { field: 'profile' } }));
    expect(checkExpectation(checkOutcome(o), o, { exit: 1, code: 'target_not_found', details: { field: 'profile' }, retryable: false })).toEqual([]);
    expect(checkExpectation(checkOutcome(o), o, { code: ['invalid_arguments'] }).map((v) => v.detail)).toEqual(['code target_not_found, expected invalid_arguments']);
  });
});
