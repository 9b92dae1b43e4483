/**
 * A call's `snapshot` (the CLI's `--snapshot` on an action): once the tool succeeded, a snapshot of
 * the tab its result names, in the same call. An agent's loop is act, then look: one process and one
 * round trip for both, and the snapshot shows what the action left, nothing in between.
 *
 * The snapshot runs as a call of its own would (params checked against its schema, the tab's
 * leases and dialog precondition, its own failures): the dispatcher hands in that runner. Its
 * failure never undoes the action's success; it is answered beside it (`{ ok: false, error }`), and
 * a dialog the action opened is that failure (target_conflict, dialog_open), since nothing can be
 * read while it is open.
 *
 * A document still being parsed (the action navigated: its new page committed, its DOM not yet
 * complete) is waited for until DOMContentLoaded (the page API's `parsed`), briefly, so the snapshot is not of half a page. An action whose
 * result proves the document parsed (ToolDefinition.leavesParsed) is not asked about it: ~10 ms per navigate.
 *
 * A client-side route (pushState, a hash) changes the URL at once and draws its view later (after a fetch, a lazy
 * chunk): a snapshot taken in between would show the new URL over the old view, a page that never existed. So when
 * the URL changed after the document last changed its elements, the snapshot waits for the view to come (bounded),
 * and whenever elements are still changing, for them to stop (a short quiet spell, bounded). The worker polls the
 * page's record of these times (injected/api.ts activity): the page's own timers are throttled in background tabs.
 */
import { RelayError, toolLabel, type AfterSnapshot } from '@chrome-relay/protocol';
import type { PageActivity } from './injected/types.js';
import { callPage, callPageAwait } from './page/pageCall.js';
import { mainFrameDocument, type PageWorld } from './page/worlds.js';
import type { ToolContext } from './actions/toolContext.js';

/** Longest wait for a document being parsed before the snapshot takes what is there. */
export const PARSED_LIMIT_MS = 5_000;
/** Longest wait for a routed view to draw, and for elements to stop changing. */
export const ROUTE_LIMIT_MS = 3_000;
export const QUIET_LIMIT_MS = 1_000;
/** Elements unchanged this long: the re-render is done. */
export const QUIET_MS = 50;
const POLL_MS = 25;

/**
 * Pure: whether the page is still settling. `start` is the first reading: a route newer than its last element change
 * waits (until ROUTE_LIMIT_MS) for elements to change; then elements changed in the last QUIET_MS wait (until
 * QUIET_LIMIT_MS) for a quiet spell.
 */
export function stillSettling(start: PageActivity, now: PageActivity, waitedMs: number): boolean {
  const routePending = start.route > start.mutation && now.mutation <= start.route;
  if (routePending) return waitedMs < ROUTE_LIMIT_MS;
  return now.mutation >= 0 && now.now - now.mutation < QUIET_MS && waitedMs < QUIET_LIMIT_MS + (start.route > start.mutation ? ROUTE_LIMIT_MS : 0);
}

/** The page script's record of when elements and the route last changed (installed first in a world without it). */
function readActivity(ctx: Pick<ToolContext, 'cdp' | 'deadline' | 'worlds'>, world: PageWorld): Promise<PageActivity> {
  return callPage(ctx, ctx.worlds, world, 'activity', undefined);
}

/** Wait (polling from here) until the page's client-side route drew and its elements stopped changing. */
async function untilSettled(ctx: Pick<ToolContext, 'cdp' | 'deadline' | 'worlds'>, world: PageWorld): Promise<void> {
  const start = await readActivity(ctx, world);
  const began = Date.now();
  for (let now = start; stillSettling(start, now, Date.now() - began) && Date.now() + POLL_MS < ctx.deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    now = await readActivity(ctx, world);
  }
}

/**
 * Runs the snapshot tool with these params as a call of its own would run (dispatcher.ts), calling
 * `settle` once the call's preconditions passed and before the tool runs.
 */
export type SnapshotRunner = (params: Record<string, unknown>, settle: () => Promise<void>) => Promise<unknown>;

/**
 * The page API's `parsed` in the snapshot's own world of the main frame's document: the snapshot then finds that world
 * made (after a click that did not navigate, it already was), where a world of its own would cost one more to create.
 */
async function askParsed(ctx: Pick<ToolContext, 'cdp' | 'worlds'>, tabId: number): Promise<PageWorld> {
  const world = await ctx.worlds.ensure(ctx, tabId, await mainFrameDocument(ctx, tabId));
  await callPageAwait(ctx, world, 'parsed');
  return world;
}

async function untilParsed(ctx: Pick<ToolContext, 'cdp' | 'deadline' | 'worlds'>, tabId: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, Math.min(PARSED_LIMIT_MS, ctx.deadline - Date.now())));
  });
  try {
    // A page that cannot answer now (navigating again, busy) gets its say in the snapshot itself.
    await Promise.race([askParsed(ctx, tabId).then((world) => untilSettled(ctx, world)).catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

function tabOf(result: unknown): number | undefined {
  const tabId = typeof result === 'object' && result !== null ? (result as { tabId?: unknown }).tabId : undefined;
  return typeof tabId === 'number' ? tabId : undefined;
}

/** The action the snapshot follows: its tool, its result, and whether that result proves the document parsed. */
export interface ActionDone {
  tool: string;
  result: unknown;
  parsed: boolean;
}

export async function snapshotAfter(ctx: Pick<ToolContext, 'cdp' | 'deadline' | 'worlds'>, { tool, result, parsed }: ActionDone, params: Record<string, unknown>, run: SnapshotRunner): Promise<AfterSnapshot> {
  try {
    const tabId = tabOf(result);
    if (tabId === undefined) {
      throw new RelayError('invalid_arguments', `${toolLabel(tool)} acts on no single tab, so there is no tab to snapshot after it; run \`chrome-relay snapshot --tab <id>\` instead.`, {
        tool: 'snapshot',
        phase: 'validate',
        details: { field: 'snapshot', tool },
      });
    }
    if ('tab' in params) {
      throw new RelayError('invalid_arguments', 'The snapshot after an action is of the tab the action names; it takes no tab of its own.', {
        tool: 'snapshot',
        phase: 'validate',
        details: { field: 'snapshot.tab' },
      });
    }
    // With a dialog open the page answers nothing: the snapshot's own precondition says so at once.
    const dialogOpen = typeof result === 'object' && result !== null && (result as { dialog?: unknown }).dialog !== undefined;
    // A result that proves the document parsed (navigate that waited for load) spares the page a question.
    const settle = dialogOpen || parsed ? () => Promise.resolve() : () => untilParsed(ctx, tabId);
    return { ok: true, result: await run({ ...params, tab: tabId }, settle) };
  } catch (error) {
    return { ok: false, error: RelayError.from(error, 'snapshot', 'act').toData() };
  }
}
