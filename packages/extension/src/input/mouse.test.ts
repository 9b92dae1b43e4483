import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { checkFocusLanding, Landed } from './landing.js';
import { clickAt, moveTo } from './mouse.js';

describe('mouse', () => {
  it('clicks with a trusted move, press and release at the point', async () => {
    const env = createFakeEnvironment();
    await clickAt(env.ctx, await checkFocusLanding(env.ctx, 3), 3, 10, 20);
    const events = env.debugger.sent.filter((c) => c.method.startsWith('Input.')).map((c) => c.params);
    expect(events).toEqual([
      { type: 'mouseMoved', x: 10, y: 20, modifiers: 0, button: 'none', buttons: 0, pointerType: 'mouse' },
      { type: 'mousePressed', x: 10, y: 20, modifiers: 0, button: 'left', buttons: 1, clickCount: 1, pointerType: 'mouse' },
      { type: 'mouseReleased', x: 10, y: 20, modifiers: 0, button: 'left', buttons: 0, clickCount: 1, pointerType: 'mouse' },
    ]);
    expect(env.debugger.methods().filter((m) => m.startsWith('Input.'))).toEqual(Array(3).fill('Input.dispatchMouseEvent'));
  });

  it('double-clicks with running click counts and the right button bits', async () => {
    const env = createFakeEnvironment();
    await clickAt(env.ctx, await checkFocusLanding(env.ctx, 3), 3, 1, 2, { button: 'right', clickCount: 2, modifiers: 8 });
    const presses = env.debugger.sent.map((c) => c.params).filter((p) => p && 'type' in p && p.type === 'mousePressed');
    expect(presses).toMatchObject([
      { button: 'right', buttons: 2, clickCount: 1, modifiers: 8 },
      { button: 'right', buttons: 2, clickCount: 2, modifiers: 8 },
    ]);
  });

  it('moves without pressing', async () => {
    const env = createFakeEnvironment();
    await moveTo(env.ctx, await checkFocusLanding(env.ctx, 3), 3, 5, 6);
    expect(env.debugger.sent.filter((c) => c.method.startsWith('Input.')).map((c) => c.params)).toEqual([{ type: 'mouseMoved', x: 5, y: 6, button: 'none', buttons: 0, pointerType: 'mouse' }]);
  });

  it('sends nothing without the landing check\'s proof for the tab it sends to', async () => {
    const env = createFakeEnvironment();
    const forged = Object.create(Landed.prototype) as Landed;
    await expect(clickAt(env.ctx, forged, 3, 10, 20)).rejects.toThrow(/landing proof/);
    await expect(moveTo(env.ctx, await checkFocusLanding(env.ctx, 4), 3, 5, 6)).rejects.toThrow(/landing proof/);
    await expect(clickAt(env.ctx, await checkFocusLanding(env.ctx, 4), { tabId: 3, sessionId: 'S' }, 1, 1)).rejects.toThrow(/landing proof/);
    expect(() => new Landed(Symbol('landed') as never, 3)).toThrow(/only by the landing check/);
    expect(env.debugger.sent.filter((c) => c.method.startsWith('Input.'))).toEqual([]);
  });
});
