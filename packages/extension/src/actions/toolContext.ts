/**
 * What a tool's handler gets: the call's part (context/call.ts: the debugger, Chrome's tab APIs, the deadline, what
 * the call was resolved to) and the services it uses, of those the composition root (background.ts) built once for
 * the worker. A tool names the services it uses (tools/defineTool.ts `uses`) and is handed those only; a helper it
 * calls asks for its own the same way (RefContext, PointerContext…), so a tool's test builds only what the tool uses.
 * A tool takes every service from here, never from a module of its own, so there is one instance of each.
 */
import type { RenderFrame, imageSize } from '../capture/frameImage.js';
import type { Recorder } from '../capture/recorder.js';
import type { TabDrawing } from '../capture/screencast.js';
import type { CallContext } from '../context/call.js';
import type { TabCaptures } from '../observe/captures.js';
import type { FrameSessions } from '../page/frames.js';
import type { ScanSite } from '../page/listeners.js';
import type { MainFrames } from '../page/mainFrames.js';
import type { NavigationTiming } from '../page/navigation.js';
import type { Worlds } from '../page/worlds.js';
import type { DialogTracker } from '../pageState/dialogs.js';
import type { DownloadTracker } from '../pageState/downloads.js';
import type { NetworkActivity } from '../pageState/networkIdle.js';
import type { RefCounter } from '../refs/counter.js';
import type { RefRegistry } from '../refs/registry.js';
import type { TabLocks } from '../refs/tabLocks.js';
import type { TargetingContext } from '../targeting/prepareCall.js';
import type { SnapshotHistory } from './snapshotHistory.js';

/** The worker's services, built once (background.ts). */
export interface ToolServices {
  /** Refs: what each one stands for, and the browser-wide counter that numbers them. */
  readonly registry: RefRegistry;
  readonly counter: RefCounter;
  /** chrome-relay's isolated world in each document. */
  readonly worlds: Worlds;
  /** Each tab's frames and the sessions that own them (out-of-process iframes), with the person's blocks. */
  readonly frames: Pick<FrameSessions, 'list' | 'hasOutOfProcessFrames' | 'blockList' | 'blocking'>;
  /** Each tab's main-frame document, followed from Page events. */
  readonly mainFrames: MainFrames;
  readonly dialogs: DialogTracker;
  readonly downloads: DownloadTracker;
  readonly network: NetworkActivity;
  /** Console and network capture per tab. */
  readonly captures: TabCaptures;
  /** Screencasts (record_start/stop; a screenshot of a recorded tab takes its frames). */
  readonly recorder: Recorder;
  /** The tabs kept drawing at full rate while agents work in them (each session's screencast). */
  readonly drawing: TabDrawing;
  /** Decoding and drawing a captured frame (an offscreen canvas in the worker; a test's frames are not images). */
  readonly render: RenderFrame;
  readonly imageSize: typeof imageSize;
  /** Leases, workspaces and tab groups. */
  readonly targeting: TargetingContext;
  /** How long a click watches for the navigation it may start. */
  readonly navigation: NavigationTiming;
  /** One snapshot of a tab at a time, including the leftover work of one that already timed out. */
  readonly snapshotLocks: TabLocks;
  /** Each tab's last snapshot per scope (`snapshot --diff`). */
  readonly snapshotHistory: SnapshotHistory;
  /** Hand each frame's page script the elements with action listeners (page/listeners.ts). */
  readonly scanListeners: (ctx: CallContext, sites: readonly ScanSite[]) => Promise<void>;
  /** Drop the native port and connect again after `delayMs` (restart_host). */
  readonly restartHost: (delayMs: number) => void;
}

export type ServiceName = keyof ToolServices;

/** A tool's (or a helper's) context: its call's part and the services it uses — every one by default. */
export type ToolContext<S extends ServiceName = ServiceName> = CallContext & Pick<ToolServices, S>;

/** What opening a ref and reading it uses (actions/refAction.ts). */
export const REF_SERVICES = ['registry', 'worlds', 'frames', 'mainFrames', 'dialogs'] as const;
export type RefContext = ToolContext<(typeof REF_SERVICES)[number]>;

/** What naming an interceptor uses (actions/interceptorIdentity.ts): it may give it a ref. */
export const IDENTIFY_SERVICES = ['registry', 'counter', 'worlds'] as const;
export type IdentifyContext = ToolContext<(typeof IDENTIFY_SERVICES)[number]>;

/** What the one pointer-action path uses (actions/pointerAction.ts): refs, frames, drawing, and naming what intercepts. */
export const POINTER_SERVICES = [...REF_SERVICES, 'counter', 'recorder', 'drawing'] as const;
export type PointerContext = ToolContext<(typeof POINTER_SERVICES)[number]>;

/** Everything the composition root builds once: a call's context is these, its deadline and what it was resolved to (tabs, refs). */
export type Services = Omit<ToolContext, 'deadline' | 'target' | 'refs'>;
