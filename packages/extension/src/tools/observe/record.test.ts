import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../../testing/fakeChrome.js';
import { NO_BLOCKED_FRAMES } from '../../testing/blockedFrames.js';
import { drawnAtScroll } from '../../capture/screenshot.js';
import { screenshotTool } from './screenshot.js';
import { Recorder } from '../../capture/recorder.js';
import { TabDrawing } from '../../capture/screencast.js';
import type { LiveFrame } from '../../capture/recordMask.js';
import { unmasked, type FrameMasker } from '../../capture/recordMask.js';
import { runTool } from '../../testing/toolContext.js';

/** Frames are kept after the masker answered (a microtask chain): let it run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const frame = (data: string, deviceWidth = 800) => ({ data, sessionId: 1, metadata: { deviceWidth, timestamp: 1 } });
const noCrop = async () => 'cropped';

describe('screenshot while the tab is being recorded', () => {
  it('the recording\'s newest frame is what the tab shows now; before the first frame, it waits for it', async () => {
    const env = createFakeEnvironment();
    const recorder = new Recorder(unmasked, new TabDrawing());
    await recorder.start(env.ctx.cdp, 3, { maxFrames: 10, quality: 50, maxEdge: 800 });
    const waiting = recorder.currentFrame(3, Date.now() + 1000);
    env.debugger.emit(3, 'Page.screencastFrame', frame('first'));
    expect(await waiting).toEqual({ data: 'first', cssWidth: 800 });
    env.debugger.emit(3, 'Page.screencastFrame', frame('second'));
    await settle();
    expect(await recorder.currentFrame(3, Date.now())).toEqual({ data: 'second', cssWidth: 800 });
    expect(await recorder.currentFrame(4, Date.now() + 1000)).toBeNull();
    // Taking a frame never stops the recording.
    expect((await recorder.stop(env.ctx.cdp, 3)).frames.map((f) => f.data)).toEqual(['first', 'second']);
  });

  it('for an element, waits past frames drawn at another scroll for the newest drawn at the one it asks for', async () => {
    const env = createFakeEnvironment();
    const recorder = new Recorder(unmasked, new TabDrawing());
    await recorder.start(env.ctx.cdp, 3, { maxFrames: 10, quality: 50, maxEdge: 800 });
    const at = (data: string, scrollOffsetY: number) => ({ data, sessionId: 1, metadata: { deviceWidth: 800, timestamp: 1, scrollOffsetX: 0, scrollOffsetY } });
    env.debugger.emit(3, 'Page.screencastFrame', at('before the scroll', 0));
    const atScroll = (frame: LiveFrame) => drawnAtScroll(frame, { x: 0, y: 500 });
    const waiting = recorder.currentFrame(3, Date.now() + 1000, atScroll);
    env.debugger.emit(3, 'Page.screencastFrame', at('still before it', 0));
    env.debugger.emit(3, 'Page.screencastFrame', at('scrolled', 500));
    expect(await waiting).toEqual({ data: 'scrolled', cssWidth: 800, scrollOffsetX: 0, scrollOffsetY: 500 });
    // The newest frame is taken at once when it was drawn there; none at that scroll by the deadline: null.
    expect((await recorder.currentFrame(3, Date.now(), atScroll))?.data).toBe('scrolled');
    env.debugger.emit(3, 'Page.screencastFrame', at('scrolled back', 0));
    await settle();
    expect(await recorder.currentFrame(3, Date.now() + 20, atScroll)).toBeNull();
    expect((await recorder.currentFrame(3, Date.now()))?.data).toBe('scrolled back');
  });

  it('gives up at the deadline when the recording has shown nothing', async () => {
    const env = createFakeEnvironment();
    const recorder = new Recorder(unmasked, new TabDrawing());
    await recorder.start(env.ctx.cdp, 3, { maxFrames: 10, quality: 50, maxEdge: 800 });
    expect(await recorder.currentFrame(3, Date.now() + 20)).toBeNull();
  });

  it('refuses --full with target_conflict (recording) before touching the viewport, and never starts a second screencast', async () => {
    const env = createFakeEnvironment();
    const tab = env.browser.addTab().id ?? 0;
    const recorder = new Recorder(unmasked, new TabDrawing());
    await recorder.start(env.ctx.cdp, tab, { maxFrames: 10, quality: 50, maxEdge: 800 });
    const error = await runTool(screenshotTool, { tab, full: true }, { ...env.ctx, render: noCrop, recorder, frames: NO_BLOCKED_FRAMES }).then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'target_conflict', retryable: false, details: { reason: 'recording', field: 'full' } });
    const sent = env.debugger.sent.map((c) => c.method);
    expect(sent.filter((m) => m === 'Page.startScreencast')).toHaveLength(1);
    expect(sent).not.toContain('Emulation.setDeviceMetricsOverride');
    expect(sent).not.toContain('Page.stopScreencast');
  });
});

describe('a recording of a page that shows a blocked site', () => {
  it('keeps the painted frame (also for screenshots), names each site once per frame, and counts frames withheld', async () => {
    const env = createFakeEnvironment();
    const site = { rule: 'bank.test', origin: 'https://bank.test' };
    const masker: FrameMasker = (_cdp, _tab, live) =>
      Promise.resolve({ frame: live.data === 'unpaintable' ? { withheld: true } : { data: `painted ${live.data}`, masked: [site, site] }, layout: undefined });
    const recorder = new Recorder(masker, new TabDrawing());
    await recorder.start(env.ctx.cdp, 3, { maxFrames: 10, quality: 50, maxEdge: 800 });
    env.debugger.emit(3, 'Page.screencastFrame', frame('first'));
    env.debugger.emit(3, 'Page.screencastFrame', frame('unpaintable'));
    await settle();
    expect((await recorder.currentFrame(3, Date.now()))?.data).toBe('painted first');
    // Each frame is acknowledged only once painted (or withheld): Chrome sends the next no faster.
    expect(env.debugger.methods(3).filter((m) => m === 'Page.screencastFrameAck')).toHaveLength(2);
    env.debugger.emit(3, 'Page.screencastFrame', frame('last'));
    const stopped = await recorder.stop(env.ctx.cdp, 3);
    expect(stopped).toEqual({
      frames: [
        { data: 'painted first', timestamp: 1 },
        { data: 'painted last', timestamp: 1 },
      ],
      dropped: 0,
      masked: [{ ...site, frames: 2 }],
      withheld: 1,
    });
  });
});
