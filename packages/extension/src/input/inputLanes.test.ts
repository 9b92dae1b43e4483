import { RelayError } from '@chrome-relay/protocol';
import { describe, expect, it } from 'vitest';
import { InputLanes, letsGo, type Turn, type Waiting } from './inputLanes.js';

const LONG = 60_000;

/** A few turns of the event loop: long enough for anything already due to have happened. */
const later = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

/** Whether `waiting` has been granted yet, observed without consuming it. */
function watch(waiting: Waiting): { granted(): boolean; turn(): Promise<Turn> } {
  let granted = false;
  waiting.granted.then(
    () => (granted = true),
    () => undefined,
  );
  return { granted: () => granted, turn: () => waiting.granted };
}

function deferred(): { promise: Promise<void>; resolve(): void; reject(error: Error): void } {
  let resolve = (): void => undefined;
  let reject = (_error: Error): void => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

describe('InputLanes: one input call per tab at a time', () => {
  it('grants turns in arrival order; a call on another tab does not wait', async () => {
    const lanes = new InputLanes();
    const order: string[] = [];
    const first = lanes.enter(1, Date.now() + LONG, 'click');
    const second = watch(lanes.enter(1, Date.now() + LONG, 'type'));
    const third = watch(lanes.enter(1, Date.now() + LONG, 'keys'));
    const elsewhere = await lanes.enter(2, Date.now() + LONG, 'click').granted;
    order.push('tab 2');
    const work = deferred();
    (await first.granted).end(work.promise);
    await later();
    expect(second.granted()).toBe(false);
    expect(third.granted()).toBe(false);
    work.resolve();
    (await second.turn()).end(Promise.resolve().then(() => order.push('second')));
    (await third.turn()).end(Promise.resolve().then(() => order.push('third')));
    elsewhere.end(Promise.resolve());
    await later();
    expect(order).toEqual(['tab 2', 'second', 'third']);
  });

  it('a call still waiting at its deadline fails timeout busy, retryable, and never gets the turn', async () => {
    const lanes = new InputLanes();
    const holder = await lanes.enter(1, Date.now() + LONG, 'type').granted;
    const impatient = lanes.enter(1, Date.now() + 20, 'click');
    const error = await impatient.granted.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ code: 'timeout', phase: 'resolve', retryable: true, details: { reason: 'busy', tab: 1 } });
    expect((error as RelayError).message).toMatch(/never started and did nothing/);
    holder.end(Promise.resolve());
    // The queue moves on to the next caller, not to the one that gave up.
    const next = await lanes.enter(1, Date.now() + LONG, 'click').granted;
    next.end(Promise.resolve());
  });

  it('a turn whose work failed passes on', async () => {
    const lanes = new InputLanes();
    const holder = await lanes.enter(1, Date.now() + LONG, 'click').granted;
    const next = watch(lanes.enter(1, Date.now() + LONG, 'click'));
    holder.end(Promise.reject(new Error('the click failed')));
    (await next.turn()).end(Promise.resolve());
    expect(next.granted()).toBe(true);
  });

  it('a turn lasts until its work settles, not until its caller was answered: a call cut off at its deadline keeps it', async () => {
    const lanes = new InputLanes();
    // The holder's deadline passes while its input is still being delivered (a page that is slow to take it).
    const holder = await lanes.enter(1, Date.now() + 10, 'type').granted;
    const work = deferred();
    holder.end(work.promise);
    const next = watch(lanes.enter(1, Date.now() + LONG, 'click'));
    await later();
    expect(next.granted()).toBe(false);
    work.resolve();
    (await next.turn()).end(Promise.resolve());
  });

  it('input still in flight keeps the turn after the work settled (a press whose handler opened a dialog)', async () => {
    const lanes = new InputLanes();
    const holder = await lanes.enter(1, Date.now() + LONG, 'click').granted;
    const pressed = lanes.admit(1, 'Input.dispatchMouseEvent');
    holder.end(Promise.resolve());
    const next = watch(lanes.enter(1, Date.now() + LONG, 'click'));
    await later();
    expect(next.granted()).toBe(false);
    // The press is answered, and the release follows at once: still the same action.
    pressed();
    const released = lanes.admit(1, 'Input.dispatchMouseEvent');
    await later();
    expect(next.granted()).toBe(false);
    released();
    (await next.turn()).end(Promise.resolve());
  });

  it('a call answered while its work runs sends no new input, only releases of what it pressed', async () => {
    const lanes = new InputLanes();
    const holder = await lanes.enter(1, Date.now() + LONG, 'type').granted;
    const work = deferred();
    holder.end(work.promise);
    const answer = new RelayError('timeout', 'Tab 1 did not let type finish before the deadline.', { details: { reason: 'page_busy' } });
    holder.answered(answer);
    expect(() => lanes.admit(1, 'Input.dispatchKeyEvent', { type: 'keyDown', key: 'a' })).toThrow(answer);
    expect(() => lanes.admit(1, 'Input.insertText', { text: 'rest' })).toThrow(answer);
    expect(() => lanes.admit(1, 'Input.dispatchMouseEvent', { type: 'mousePressed', x: 1, y: 1 })).toThrow(answer);
    lanes.admit(1, 'Input.dispatchKeyEvent', { type: 'keyUp', key: 'a' })();
    lanes.admit(1, 'Input.dispatchMouseEvent', { type: 'mouseReleased', x: 1, y: 1 })();
    work.resolve();
    (await lanes.enter(1, Date.now() + LONG, 'click').granted).end(Promise.resolve());
  });

  it('letsGo: releases and turning drag interception off, nothing else', () => {
    expect(letsGo('Input.dispatchMouseEvent', { type: 'mouseReleased' })).toBe(true);
    expect(letsGo('Input.dispatchKeyEvent', { type: 'keyUp' })).toBe(true);
    expect(letsGo('Input.setInterceptDrags', { enabled: false })).toBe(true);
    for (const [method, params] of [
      ['Input.dispatchMouseEvent', { type: 'mouseMoved' }],
      ['Input.dispatchMouseEvent', { type: 'mousePressed' }],
      ['Input.dispatchKeyEvent', { type: 'rawKeyDown' }],
      ['Input.dispatchKeyEvent', { type: 'char' }],
      ['Input.insertText', { text: 'x' }],
      ['Input.dispatchDragEvent', { type: 'drop' }],
      ['Input.setInterceptDrags', { enabled: true }],
    ] as const) {
      expect(letsGo(method, params), `${method} ${JSON.stringify(params)}`).toBe(false);
    }
  });

  it('refuses an Input command to a tab no call holds, naming the fix', async () => {
    const lanes = new InputLanes();
    expect(() => lanes.admit(3, 'Input.dispatchKeyEvent')).toThrow(/input: true/);
    const turn = await lanes.enter(3, Date.now() + LONG, 'keys').granted;
    const done = lanes.admit(3, 'Input.dispatchKeyEvent');
    done();
    // Counted once, however often it is reported.
    done();
    turn.end(Promise.resolve());
    await later();
    expect(lanes.held(3)).toBe(false);
    expect(() => lanes.admit(3, 'Input.dispatchKeyEvent')).toThrow(RelayError);
  });

  it('a caller that gave up waiting is passed over; one that gave up as its turn came ends it', async () => {
    const lanes = new InputLanes();
    const holder = await lanes.enter(1, Date.now() + LONG, 'click').granted;
    const quitter = lanes.enter(1, Date.now() + LONG, 'click');
    const quit = watch(quitter);
    const next = watch(lanes.enter(1, Date.now() + LONG, 'click'));
    quitter.abandon();
    holder.end(Promise.resolve());
    const turn = await next.turn();
    expect(quit.granted()).toBe(false);

    const late = lanes.enter(1, Date.now() + LONG, 'click');
    turn.end(Promise.resolve());
    await late.granted;
    late.abandon();
    await lanes.enter(1, Date.now() + LONG, 'click').granted.then((last) => last.end(Promise.resolve()));
  });
});
