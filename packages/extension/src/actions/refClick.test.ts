import { reasonedError, RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { meanwhile } from './refClick.js';
import { described } from './interceptorIdentity.js';
import { interceptedError, notVisibleError } from './refAction.js';

describe('meanwhile: waiting for an element that gave way to be drawn again', () => {
  const toolbar = described({ tag: 'div', nodeName: 'DIV', candidate: 1, id: 'toolbar', className: '', name: 'Toolbar' });

  it('waits while it has no size', () => {
    expect(meanwhile(notVisibleError('click', 'e1', 3))).toBe(true);
  });

  it('does not wait out anything else: a cover that came meanwhile, past the edge, a click that was sent, a stale ref, a page that is gone', () => {
    expect(meanwhile(interceptedError('click', 'e1', 3, { x: 1, y: 2, healed: false, when: 'before_pointer', sent: false, interceptor: toolbar }))).toBe(false);
    expect(meanwhile(notVisibleError('click', 'e1', 3, true))).toBe(false);
    expect(meanwhile(interceptedError('click', 'e1', 3, { x: 1, y: 2, healed: false, when: 'after_pointer', sent: true, interceptor: toolbar }))).toBe(false);
    expect(meanwhile(reasonedError('stale_ref', 'navigated', 'Ref @e1 is gone.', { tool: 'click', phase: 'resolve' }))).toBe(false);
    expect(meanwhile(new RelayError('cdp_error', 'Target closed', { tool: 'click', phase: 'act' }))).toBe(false);
  });
});
