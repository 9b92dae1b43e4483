/**
 * `record_start` / `record_stop`: the tab's screencast through the recorder (capture/recorder.ts), which masks every
 * frame before it is kept.
 */

import { DEFAULT_MAX_FRAMES } from '../../capture/recorder.js';
import { callTab } from '../../context/call.js';
import { defineTool } from '../defineTool.js';

export const recordStartTool = defineTool({
  name: 'record_start',
  uses: ['recorder'],
  async handle(params, ctx) {
    const tabId = callTab(ctx);
    await ctx.recorder.start(ctx.cdp, tabId, {
      maxFrames: params.maxFrames ?? DEFAULT_MAX_FRAMES,
      quality: params.quality ?? 70,
      maxEdge: params.maxEdge ?? 1280,
    });
    return { tabId, recording: true as const };
  },
});

export const recordStopTool = defineTool({
  name: 'record_stop',
  uses: ['recorder'],
  async handle(params, ctx) {
    const tabId = callTab(ctx);
    return { tabId, ...(await ctx.recorder.stop(ctx.cdp, tabId)) };
  },
});
