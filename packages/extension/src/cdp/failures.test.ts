import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { cdpFailure, cdpKindOf, commandFailure, DOCUMENT_GONE, isCdpFailure, isCommandFailure, sessionClosed } from './failures.js';

describe('Chrome error texts, read once', () => {
  it.each([
    ['Cannot find context with specified id', 'context_gone'],
    ['Execution context was destroyed.', 'context_gone'],
    ['Cannot find default execution context', 'context_gone'],
    ['Inspected target navigated or closed', 'navigated'],
    ['Not attached to an active page', 'swapping'],
    ['No frame for given id found', 'frame_gone'],
    ['Frame with the given id was not found.', 'frame_gone'],
    ['Could not compute box model.', 'not_rendered'],
    ['Could not compute content quads.', 'not_rendered'],
    ['No dialog is showing', 'no_dialog'],
    ['Invalid parameters', 'other'],
    // Not a phrase of Chrome's: a session that ended is said by the code that saw it end (sessionClosed).
    ['detached: canceled_by_user', 'other'],
  ] as const)('%s → %s', (text, kind) => {
    expect(cdpKindOf(text)).toBe(kind);
    const failed = commandFailure('X', text);
    expect(cdpFailure(failed)).toBe(kind);
    expect(failed.toData()).toMatchObject({ code: 'cdp_error', message: `X failed: ${text}`, details: { method: 'X', cdpMessage: text } });
  });

  it('a session that ended is session_closed because its maker says so, whatever the words', () => {
    const ended = sessionClosed('Lost the debugger session of tab 3 while it loaded (canceled_by_user); retry.', { phase: 'wait', details: { detached: 'canceled_by_user' } });
    expect(cdpFailure(ended)).toBe('session_closed');
    expect(ended.code).toBe('cdp_error');
    expect(isCommandFailure(ended)).toBe(true);
  });

  it('the kind is set where the error is made: a cdp_error made another way is other, whatever it says', () => {
    // The page's own exception (js) may say anything, Chrome's phrases and the detach words included.
    for (const text of ['Cannot find context with specified id', 'Execution context was destroyed.', 'detached: target_closed', 'No dialog is showing']) {
      const thrown = new RelayError('cdp_error', `The page threw while evaluating expression: Error: ${text}`, { phase: 'act', details: { method: 'Runtime.evaluate', exception: text, cdpMessage: text } });
      expect(cdpFailure(thrown), text).toBe('other');
      expect(isCdpFailure(thrown, ...DOCUMENT_GONE, 'swapping', 'session_closed', 'no_dialog', 'frame_gone')).toBe(false);
      expect(isCommandFailure(thrown)).toBe(false);
    }
  });

  it('classifies failed CDP commands only: other errors have no kind', () => {
    expect(cdpFailure(new RelayError('timeout', 'Cannot find context with specified id', { phase: 'act' }))).toBeUndefined();
    expect(cdpFailure(new Error('Cannot find context with specified id'))).toBeUndefined();
    expect(isCdpFailure(new Error('Execution context was destroyed'), ...DOCUMENT_GONE)).toBe(false);
  });
});
