import { describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { commandFailure } from './cdp/failures.js';
import { DocumentChanged } from './page/pageCall.js';
import { navigationCut } from './navigationCut.js';

const cdpError = (cdpMessage: string) => commandFailure('Runtime.callFunctionOn', cdpMessage);

describe('navigationCut', () => {
  it('turns every "the document went away" CDP answer into timeout/navigating, retryable for a read', () => {
    for (const text of ['Cannot find context with specified id', 'Execution context was destroyed.', 'Inspected target navigated or closed']) {
      const error = navigationCut(cdpError(text), 'get', 7) as RelayError;
      expect(error.toData()).toMatchObject({ code: 'timeout', tool: 'get', retryable: true, details: { reason: 'navigating', tab: 7, cdpMessage: text } });
      expect(error.message).toMatch(/^Tab 7 navigated while `get` ran.*wait --load/);
    }
  });

  it('a mutation cut off this way may have acted: not retryable, check the page first', () => {
    const error = navigationCut(cdpError('Execution context was destroyed.'), 'click', 7) as RelayError;
    expect(error.toData()).toMatchObject({ code: 'timeout', retryable: false, details: { reason: 'navigating', mayHaveActed: true } });
  });

  it('a document change no tool answered for itself is the same timeout/navigating, never internal_error', () => {
    const error = navigationCut(new DocumentChanged(9), 'scroll', 9) as RelayError;
    expect(error.toData()).toMatchObject({ code: 'timeout', tool: 'scroll', retryable: false, details: { reason: 'navigating', tab: 9, mayHaveActed: true } });
  });

  it('leaves other errors alone', () => {
    const other = cdpError('Could not compute box model.');
    expect(navigationCut(other, 'click', 7)).toBe(other);
    const stale = new RelayError('stale_ref', 'gone', { details: { reason: 'navigated' } });
    expect(navigationCut(stale, 'click', 7)).toBe(stale);
  });

  it("leaves the page's own exception alone, whatever it says: it is not the document going away", () => {
    // What `js "throw new Error('Execution context was destroyed.')"` fails with (pageState/mainWorld.ts).
    const thrown = new RelayError('cdp_error', 'The page threw while evaluating expression: Error: Execution context was destroyed.', {
      tool: 'js',
      phase: 'act',
      retryable: false,
      details: { method: 'Runtime.evaluate', exception: 'Error: Execution context was destroyed.' },
    });
    expect(navigationCut(thrown, 'js', 7)).toBe(thrown);
  });
});
