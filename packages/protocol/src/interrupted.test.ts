import { describe, expect, it } from 'vitest';
import { RelayError } from './errors.js';
import { asInterrupted, toolMutates } from './interrupted.js';
import { reasonedError } from './reasons.js';
import { TOOLS, type ToolName } from './tools.js';

describe('interrupted mutations', () => {
  it('every tool declares whether it mutates; the actions an agent takes do, the reads do not', () => {
    for (const name of Object.keys(TOOLS) as ToolName[]) expect(typeof TOOLS[name].mutates, name).toBe('boolean');
    for (const name of ['click', 'keys', 'type', 'fill', 'select', 'check', 'uncheck', 'drag', 'upload', 'navigate', 'js', 'back', 'close', 'dialog']) {
      expect(toolMutates(name), name).toBe(true);
    }
    for (const name of ['status', 'tabs', 'snapshot', 'get', 'wait', 'screenshot', 'console', 'network', 'network_har', 'lease_list']) {
      expect(toolMutates(name), name).toBe(false);
    }
    expect(toolMutates('no_such_tool')).toBe(false);
  });

  it('a mutating call cut off after it started is not retryable, keeps its details and says to check the page', () => {
    const cut = asInterrupted(reasonedError('timeout', 'extension_unresponsive', 'The extension did not answer click within 5 ms.', { tool: 'click', phase: 'host', details: { timeoutMs: 5 } }));
    expect(cut.toData()).toMatchObject({ code: 'timeout', tool: 'click', phase: 'host', retryable: false, details: { timeoutMs: 5, reason: 'extension_unresponsive', mayHaveActed: true } });
    expect(cut.message).toMatch(/^The extension did not answer click within 5 ms\. `click` may already have taken effect: run `chrome-relay snapshot` and check the page before re-issuing it\.$/);
    expect(asInterrupted(cut)).toBe(cut);
    const gone = asInterrupted(new RelayError('native_host_disconnected', 'gone', { tool: 'fill', phase: 'transport' }));
    expect(gone.toData()).toMatchObject({ retryable: false, details: { mayHaveActed: true } });
  });

  it('leaves read-only calls, other codes, and failures before the tool started as they are', () => {
    const read = new RelayError('native_host_disconnected', 'gone', { tool: 'snapshot', phase: 'transport' });
    expect(asInterrupted(read)).toBe(read);
    const stale = reasonedError('stale_ref', 'vanished', 'gone', { tool: 'click', phase: 'resolve' });
    expect(asInterrupted(stale)).toBe(stale);
    for (const phase of ['cli', 'connect', 'validate', 'dispatch', 'resolve'] as const) {
      const early = reasonedError('timeout', 'busy', 'waited for the lock', { tool: 'click', phase });
      expect(asInterrupted(early).retryable, phase).toBe(true);
    }
  });
});
