import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { cdpFailure, cdpKindOf, DOCUMENT_GONE, isCdpFailure } from './failures.js';

const cdpError = (cdpMessage: string) => new RelayError('cdp_error', `X failed: ${cdpMessage}`, { phase: 'act', details: { method: 'X', cdpMessage } });

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
    ['detached: canceled_by_user', 'session_closed'],
    ['Invalid parameters', 'other'],
  ] as const)('%s → %s', (text, kind) => {
    expect(cdpKindOf(text)).toBe(kind);
    expect(cdpFailure(cdpError(text))).toBe(kind);
  });

  it('classifies failed CDP commands only: other errors have no kind', () => {
    expect(cdpFailure(new RelayError('timeout', 'Cannot find context with specified id', { phase: 'act' }))).toBeUndefined();
    expect(cdpFailure(new Error('Cannot find context with specified id'))).toBeUndefined();
    expect(isCdpFailure(new Error('Execution context was destroyed'), ...DOCUMENT_GONE)).toBe(false);
  });

  it('reads the message when Chrome gave no cdpMessage', () => {
    expect(cdpFailure(new RelayError('cdp_error', 'Execution context was destroyed.', { phase: 'act' }))).toBe('context_gone');
  });
});
