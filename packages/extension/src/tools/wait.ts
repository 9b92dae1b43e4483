/**
 * `wait`: block until ONE condition holds in the tab, or fail with `timeout` and the page's state.
 *
 * - text / selector / load: polled every 100 ms in an isolated world (page scripts cannot fake or
 *   hide the answer). "Visible" = checkVisibility() and a non-empty box; any one matching element
 *   counts. text is case-sensitive, against the rendered text (document.body.innerText, plus the
 *   rendered text of every open shadow root, which innerText leaves out); a selector matches inside
 *   open shadow roots too (each tree scope searched on its own).
 * - `--frame @ref`: text, selector, load, url and fn are checked inside that iframe's document
 *   (url = the frame's own URL); networkIdle and download belong to the tab and take no frame.
 * - url: the tab's current history entry (includes pushState), against a glob (pageState/urlGlob.ts).
 * - fn: an expression evaluated in the main world (it wants page globals), truthy ends the wait;
 *   a compile error is invalid_arguments (field fn), a throw is cdp_error (use optional chaining
 *   for things that do not exist yet).
 * - networkIdle: pageState/networkIdle.ts (nothing in flight and quiet for 500 ms).
 * - download: the tab's next download no earlier wait returned (pageState/downloads.ts).
 *
 * The time limit is params.timeoutMs, capped so the answer — including the timeout's diagnostics —
 * reaches the host before the call's own deadline. A dialog opening while waiting ends the wait
 * with target_conflict (the page is blocked until it is answered). Part B adds `ref` (wait until a
 * ref's element is visible) as one more condition resolved through the refs layer.
 */
import { selectorRefused } from '../page/selectorRefused.js';
import { callTab } from '../context/call.js';
import { reasonedError, RelayError, type ToolParams, type ToolResult } from '@chrome-relay/protocol';
import { DOCUMENT_GONE, isCdpFailure } from '../cdp/failures.js';
import { dialogOpenError } from '../pageState/dialogs.js';
import { armedDir, toDownloadInfo, type DownloadInfo } from '../pageState/downloads.js';
import { callRead, type ReadSite } from '../page/pageCall.js';
import { evaluateInMainWorld, isTruthy, type MainWorldSite } from '../pageState/mainWorld.js';
import { currentEntry } from '../pageState/readiness.js';
import { urlMatches } from '../pageState/urlGlob.js';
import { defineTool } from './defineTool.js';
import { REF_SERVICES, type ToolContext } from '../actions/toolContext.js';
import { resolveFrameRef } from '../actions/frameRef.js';

/** The services this tool uses (tools/defineTool.ts). */
const USES = [...REF_SERVICES, 'downloads', 'network'] as const;
type UsedContext = ToolContext<(typeof USES)[number]>;

export const POLL_MS = 100;
/** Kept back from the call deadline for the timeout's diagnostics and the reply. */
export const DIAGNOSTICS_RESERVE_MS = 600;

type WaitCondition = ToolResult<'wait'>['condition'];
type Check = { met: true; download?: DownloadInfo } | { met: false };
/** The last check, plus what the timeout error should say about the page (details). */
type Outcome = { check: Check; detail: Record<string, unknown> };

function conditionOf(params: ToolParams<'wait'>): WaitCondition {
  if (params.text !== undefined) return 'text';
  if (params.url !== undefined) return 'url';
  if (params.load !== undefined) return 'load';
  if (params.networkIdle !== undefined) return 'networkIdle';
  if (params.fn !== undefined) return 'fn';
  if (params.selector !== undefined) return 'selector';
  return 'download';
}

function describe(condition: WaitCondition, params: ToolParams<'wait'>): string {
  switch (condition) {
    case 'text':
      return `text "${params.text ?? ''}"`;
    case 'url':
      return `URL matching ${params.url ?? ''}`;
    case 'load':
      return 'the load event';
    case 'networkIdle':
      return 'network idle';
    case 'fn':
      return `${params.fn ?? ''} to be truthy`;
    case 'selector':
      return `a visible ${params.selector ?? ''}`;
    case 'download':
      return 'a download to complete';
  }
}

/** A poll cut off by the page changing under it: the next poll asks the new document. */
function transient(error: unknown): boolean {
  return isCdpFailure(error, ...DOCUMENT_GONE, 'swapping');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Best-effort page state for the timeout error; bounded so it cannot eat the reply's time. */
async function diagnostics(ctx: UsedContext, tabId: number, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const bounded = <T>(work: Promise<T>): Promise<T | null> => {
    work.catch(() => undefined);
    return Promise.race([work.catch(() => null), sleep(400).then(() => null)]);
  };
  const [entry, readyState] = await Promise.all([bounded(currentEntry(ctx, tabId)), bounded(callRead(ctx, tabId, 'readyState', undefined))]);
  return { tab: tabId, url: entry?.url ?? null, readyState, ...extra };
}

async function pollUntil(ctx: UsedContext, tabId: number, by: number, check: () => Promise<Check & { exists?: boolean }>): Promise<Outcome> {
  const dialogs = ctx.dialogs;
  let exists: boolean | undefined;
  for (;;) {
    const outcome = await dialogs.watch(tabId, async () => {
      try {
        return await check();
      } catch (error) {
        if (transient(error)) return { met: false as const };
        throw error;
      }
    });
    if ('dialog' in outcome) throw dialogOpenError(tabId, outcome.dialog, 'wait');
    exists = outcome.done.exists ?? exists;
    if (outcome.done.met || Date.now() + POLL_MS > by) return { check: outcome.done, detail: exists === undefined ? {} : { targetExists: exists } };
    await sleep(POLL_MS);
  }
}

async function waitForDownload(ctx: UsedContext, tabId: number, by: number): Promise<Outcome> {
  const tracker = ctx.downloads;
  const dialogs = ctx.dialogs;
  const finished = await dialogs.watch(tabId, () => tracker.waitForFinished(tabId, by));
  if ('dialog' in finished) throw dialogOpenError(tabId, finished.dialog, 'wait');
  const download = finished.done;
  if (!download) return { check: { met: false }, detail: { downloadStarted: tracker.nextUnreported(tabId) !== undefined } };
  if (download.state === 'canceled') {
    download.reported = true;
    throw new RelayError('chrome_api_error', `The download of ${download.url} was canceled before it completed.`, {
      tool: 'wait',
      phase: 'wait',
      details: { api: 'Page.downloadProgress', apiMessage: 'canceled', url: download.url, tab: tabId },
    });
  }
  const path = await tracker.savedPath(download, by);
  if (path === undefined) {
    // Left unreported, so the next `wait --download` returns this same download.
    throw reasonedError('timeout', 'download_path_pending', `The download of ${download.url} completed, but the browser had not recorded where it saved it in time; run \`chrome-relay wait --download\` again with a larger --timeout (it reports this same download).`, {
      tool: 'wait',
      phase: 'wait',
      details: { tab: tabId, url: download.url, condition: 'download' },
    });
  }
  download.reported = true;
  return { check: { met: true, download: toDownloadInfo(download, path, await armedDir(ctx, tabId)) }, detail: {} };
}

async function waitForNetworkIdle(ctx: UsedContext, tabId: number, by: number): Promise<Outcome> {
  const activity = ctx.network;
  const started = Date.now();
  const blind = await activity.ensureEnabled(ctx, tabId);
  // Quiet before the wait only counts if requests were being watched then.
  const quietFrom = blind ? started : 0;
  const result = await pollUntil(ctx, tabId, by, async () => ({ met: activity.requests(tabId).isIdle(Date.now(), quietFrom) }));
  return { check: result.check, detail: { requestsInFlight: activity.requests(tabId).count } };
}

/** Where the page conditions are checked: the tab's main frame, or the frame of `--frame @ref`. */
interface WaitSite {
  tabId: number;
  reads: ReadSite;
  main: MainWorldSite;
  frame?: string;
}

async function waitSite(ctx: UsedContext, params: ToolParams<'wait'>, condition: WaitCondition): Promise<WaitSite> {
  if (params.frame === undefined) {
    const tabId = callTab(ctx);
    return { tabId, reads: tabId, main: tabId };
  }
  if (condition === 'networkIdle' || condition === 'download') {
    throw new RelayError('invalid_arguments', `Invalid arguments for wait: --frame does not apply to ${condition === 'download' ? '--download' : '--networkidle'}, which watches the whole tab; drop --frame.`, {
      tool: 'wait',
      phase: 'validate',
      details: { field: 'frame', condition },
    });
  }
  const frame = await resolveFrameRef(ctx, 'wait', params.frame);
  return { tabId: frame.tabId, reads: frame.reads, main: frame.main, frame: params.frame };
}

export const waitTool = defineTool({
  name: 'wait',
  uses: USES,
  async handle(params, ctx) {
    const condition = conditionOf(params);
    const started = Date.now();
    const site = await waitSite(ctx, params, condition);
    const tabId = site.tabId;
    const cap = ctx.deadline - DIAGNOSTICS_RESERVE_MS;
    const by = Math.min(params.timeoutMs === undefined ? cap : started + params.timeoutMs, cap);

    let outcome: Outcome;
    switch (condition) {
      case 'download':
        outcome = await waitForDownload(ctx, tabId, by);
        break;
      case 'networkIdle':
        outcome = await waitForNetworkIdle(ctx, tabId, by);
        break;
      case 'url': {
        const glob = params.url ?? '';
        // The tab's URL comes from its history entry (pushState included); a frame's from its document.
        const urlNow = async (): Promise<string> => {
          if (site.frame === undefined) return (await currentEntry(ctx, tabId)).url;
          const answer = await callRead(ctx, site.reads, 'waitCondition', { kind: 'url', arg: '' });
          return answer.status === 'ok' ? (answer.url ?? '') : '';
        };
        outcome = await pollUntil(ctx, tabId, by, async () => ({ met: urlMatches(glob, await urlNow()) }));
        break;
      }
      case 'fn': {
        const fn = params.fn ?? '';
        outcome = await pollUntil(ctx, tabId, by, async () => {
          const evaluation = await evaluateInMainWorld(ctx, site.main, fn, { tool: 'wait', field: 'fn', maxDepth: 0 });
          return { met: isTruthy(evaluation.deep) };
        });
        break;
      }
      default: {
        const arg = condition === 'text' ? (params.text ?? '') : (params.selector ?? '');
        outcome = await pollUntil(ctx, tabId, by, async () => {
          const answer = await callRead(ctx, site.reads, 'waitCondition', { kind: condition, arg });
          if (answer.status !== 'ok') throw selectorRefused('wait', 'selector', arg, answer);
          return answer.exists === undefined ? { met: answer.met } : { met: answer.met, exists: answer.exists };
        });
      }
    }

    if (outcome.check.met) {
      const url = (await currentEntry(ctx, tabId)).url;
      const result = { tabId, condition, elapsedMs: Date.now() - started, url };
      return outcome.check.download ? { ...result, download: outcome.check.download } : result;
    }
    const waited = Date.now() - started;
    const extra: Record<string, unknown> = { condition, waitedMs: waited, ...outcome.detail, ...(site.frame === undefined ? {} : { frame: site.frame }) };
    const capped = params.timeoutMs !== undefined && by < started + params.timeoutMs;
    throw reasonedError(
      'timeout',
      'condition_not_met',
      `Waited ${waited} ms for ${describe(condition, params)} in tab ${tabId}; it did not happen${capped ? ' (the wait was cut to fit the call deadline: raise --timeout)' : ''}. Check the page with \`chrome-relay snapshot\`; retry with a larger --timeout if it is merely slow.`,
      { tool: 'wait', phase: 'wait', details: await diagnostics(ctx, tabId, extra) },
    );
  },
});

