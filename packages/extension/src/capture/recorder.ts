/**
 * Screencast frames of one tab (`record_start` / `record_stop`), kept in worker memory until stop.
 * Every frame is acknowledged at once (Chrome sends the next only after the ack); frames beyond the
 * cap push out the oldest, counted in `dropped`. The byte cap keeps the stop answer well under the
 * 64 MiB a message to the host may carry.
 *
 * Each frame goes through the masker first (recordMask.ts: areas showing a site the person blocked are painted
 * over, or the frame is withheld), and is acknowledged only then: what is kept, and what a screenshot takes from
 * the recording, is always the painted frame.
 */
import { RelayError, type ToolResult } from '@chrome-relay/protocol';
import type Protocol from 'devtools-protocol';
import type { CdpSessions } from '../cdp/cdpSession.js';
import type { BlockedLayout } from '../page/blockedBoxes.js';
import { createFrameMasker, type FrameMasker, type LiveFrame, type SiteShown } from './recordMask.js';
import { endScreencast, startedFrames, type TabDrawing } from './screencast.js';

export const DEFAULT_MAX_FRAMES = 300;
const MAX_TOTAL_BYTES = 48 * 1024 * 1024;

type Frame = ToolResult<'record_stop'>['frames'][number] & { masked: SiteShown[] };

interface Recording {
  frames: Frame[];
  bytes: number;
  dropped: number;
  maxFrames: number;
  stopListening: () => void;
  /** The newest frame with its width in CSS px (what `screenshot` takes while the tab is recorded). */
  latest: LiveFrame | null;
  /** Waiting for a frame (the first, or one a screenshot accepts); each returns whether it took this one. */
  waiters: ((frame: LiveFrame) => boolean)[];
  /** Frames arrive one at a time (each is acknowledged after masking): the one being masked now. */
  pending: Promise<void>;
  /** The blocked areas measured after the last frame (the next frame is covered at those too). */
  layout: BlockedLayout | undefined;
  withheld: number;
}

export class Recorder {
  readonly #recordings = new Map<number, Recording>();
  readonly #mask: FrameMasker;
  /** Whether a tab goes back to being kept drawing when its recording stops. */
  readonly #drawing: TabDrawing;

  constructor(mask: FrameMasker, drawing: TabDrawing) {
    this.#mask = mask;
    this.#drawing = drawing;
  }

  isRecording(tabId: number): boolean {
    return this.#recordings.has(tabId);
  }

  async start(cdp: CdpSessions, tabId: number, options: { maxFrames: number; quality: number; maxEdge: number }): Promise<void> {
    if (this.#recordings.has(tabId)) {
      throw new RelayError('invalid_arguments', `Tab ${tabId} is already being recorded; run \`chrome-relay record stop --out DIR\` first.`, {
        phase: 'validate',
        details: { field: 'tab', tab: tabId },
      });
    }
    const recording: Recording = {
      frames: [],
      bytes: 0,
      dropped: 0,
      maxFrames: options.maxFrames,
      stopListening: () => undefined,
      latest: null,
      waiters: [],
      pending: Promise.resolve(),
      layout: undefined,
      withheld: 0,
    };
    const onFrame = (frame: Protocol.Page.ScreencastFrameEvent): Promise<void> => {
      const arrived: LiveFrame = { data: frame.data, cssWidth: frame.metadata.deviceWidth };
      if (frame.metadata.scrollOffsetX !== undefined) arrived.scrollOffsetX = frame.metadata.scrollOffsetX;
      if (frame.metadata.scrollOffsetY !== undefined) arrived.scrollOffsetY = frame.metadata.scrollOffsetY;
      const timestamp = frame.metadata.timestamp ?? Date.now() / 1000;
      recording.pending = recording.pending
        .then(() => this.#take(cdp, tabId, recording, arrived, timestamp, options.quality))
        .catch((error: unknown) => console.error('chrome-relay: keeping a recorded frame failed', error));
      // Acknowledged (and so the next frame sent) once this one is kept.
      return recording.pending;
    };
    this.#recordings.set(tabId, recording);
    try {
      recording.stopListening = await startedFrames({ cdp, drawing: this.#drawing }, tabId, { format: 'jpeg', quality: options.quality, maxWidth: options.maxEdge, maxHeight: options.maxEdge, everyNthFrame: 1 }, onFrame);
    } catch (error) {
      this.discard(tabId);
      throw error;
    }
  }

  async stop(cdp: CdpSessions, tabId: number): Promise<Omit<ToolResult<'record_stop'>, 'tabId'>> {
    const recording = this.#recordings.get(tabId);
    if (!recording) {
      throw new RelayError('invalid_arguments', `Tab ${tabId} is not being recorded; start with \`chrome-relay record start --tab ${tabId}\`.`, {
        phase: 'validate',
        details: { field: 'tab', tab: tabId },
      });
    }
    this.discard(tabId);
    // The frame being painted now is kept too.
    await recording.pending;
    // The frames are already ours; a tab that can no longer stop its screencast has stopped anyway.
    await endScreencast({ cdp, drawing: this.#drawing }, tabId);
    const shown = new Map<string, SiteShown & { frames: number }>();
    for (const frame of recording.frames) {
      // Once per frame, however many of its frames one site shows in.
      const sites = new Map(frame.masked.map((site) => [`${site.rule}\n${site.origin}`, site]));
      for (const [key, site] of sites) shown.set(key, { ...site, frames: (shown.get(key)?.frames ?? 0) + 1 });
    }
    return {
      frames: recording.frames.map(({ data, timestamp }) => ({ data, timestamp })),
      dropped: recording.dropped,
      ...(shown.size === 0 ? {} : { masked: [...shown.values()] }),
      ...(recording.withheld === 0 ? {} : { withheld: recording.withheld }),
    };
  }

  async #take(cdp: CdpSessions, tabId: number, recording: Recording, arrived: LiveFrame, timestamp: number, quality: number): Promise<void> {
    const { frame, layout } = await this.#mask(cdp, tabId, arrived, quality, recording.layout);
    recording.layout = layout;
    if ('withheld' in frame) {
      recording.withheld++;
      return;
    }
    this.#keep(recording, { data: frame.data, timestamp, masked: frame.masked });
    const latest: LiveFrame = { ...arrived, data: frame.data };
    recording.latest = latest;
    recording.waiters = recording.waiters.filter((waiter) => !waiter(latest));
  }

  /**
   * What the tab shows now, from its running screencast: Chrome sends a frame whenever the page repaints,
   * so the newest one is current. Before the first frame, or while the newest is not one `accept` takes (a
   * screenshot wants a frame drawn at the scroll it measured its element at), waits for the next that is
   * (null when none came by `deadline`, or when the tab is not being recorded).
   */
  async currentFrame(tabId: number, deadline: number, accept: (frame: LiveFrame) => boolean = () => true): Promise<LiveFrame | null> {
    const recording = this.#recordings.get(tabId);
    if (!recording) return null;
    if (recording.latest && accept(recording.latest)) return recording.latest;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let waiter: ((frame: LiveFrame) => boolean) | undefined;
    try {
      return await new Promise<LiveFrame | null>((resolve) => {
        waiter = (frame) => {
          if (!accept(frame)) return false;
          resolve(frame);
          return true;
        };
        recording.waiters.push(waiter);
        timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()));
      });
    } finally {
      clearTimeout(timer);
      recording.waiters = recording.waiters.filter((candidate) => candidate !== waiter);
    }
  }

  discard(tabId: number): void {
    const recording = this.#recordings.get(tabId);
    if (!recording) return;
    recording.stopListening();
    this.#recordings.delete(tabId);
  }

  #keep(recording: Recording, frame: Frame): void {
    recording.frames.push(frame);
    recording.bytes += frame.data.length;
    while (recording.frames.length > recording.maxFrames || recording.bytes > MAX_TOTAL_BYTES) {
      const oldest = recording.frames.shift();
      if (!oldest) break;
      recording.bytes -= oldest.data.length;
      recording.dropped++;
    }
  }
}

