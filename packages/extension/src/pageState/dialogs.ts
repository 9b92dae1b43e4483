/**
 * JavaScript dialogs (alert/confirm/prompt/beforeunload) per tab, so no command ever wedges on one.
 *
 * Observed in Chromium 156 through chrome.debugger while an alert is open: Runtime.evaluate,
 * DOM.getDocument, Page.getFrameTree and Page.enable do not answer until the dialog closes; the
 * Input.dispatch* call that opened it (mouseReleased, keyDown) does not answer either; later input
 * events answer at once but are dropped; Page.getNavigationHistory and Page.handleJavaScriptDialog
 * answer normally. Chrome reports dialogs only to sessions with the Page domain enabled, and only
 * those that open after Page.enable: a new session (even after a detach/re-attach) is not told about
 * a dialog that is already open, and cannot answer it ("No dialog is showing").
 *
 * Hence:
 * - ensureEvents(): Page.enable once per session, bounded in time (it hangs on a dialog we were
 *   never told about).
 * - A per-tab record of the open dialog, fed by Page.javascriptDialogOpening/Closed, mirrored in
 *   chrome.storage.session so a restarted worker (whose debugger session lives on) still knows.
 * - watch(): lets an action race its CDP calls against a dialog opening, and return promptly.
 *
 * One tracker per CdpSessions (the worker has one; tests make their own). createDispatcher creates
 * the worker's at its top level, so events that wake the worker find the listener in place.
 */
import { reasonedError, type ToolResult } from '@chrome-relay/protocol';
import type { RelayError } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import type { CdpEvent, CdpSessions } from '../cdp/cdpSession.js';
import type { ToolContext } from '../tools/defineTool.js';

/** A JavaScript dialog as the page opened it (DialogInfoSchema in protocol tools/actions.ts). */
export type DialogInfo = NonNullable<ToolResult<'keys'>['dialog']>;

/** chrome.storage.session key: { [tabId]: DialogInfo } of dialogs open right now. */
export const OPEN_DIALOGS_KEY = 'openDialogs';
/** How long Page.enable may take before we conclude the page cannot answer (see header). */
export const PAGE_ENABLE_LIMIT_MS = 3_000;

const DIALOG_TYPES: readonly DialogInfo['type'][] = ['alert', 'confirm', 'prompt', 'beforeunload'];

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

/** A Page.javascriptDialogOpening payload (or a stored copy) as DialogInfo, or undefined. */
export function toDialogInfo(params: unknown): DialogInfo | undefined {
  const p = record(params);
  const type = DIALOG_TYPES.find((t) => t === p?.type);
  if (!p || !type || typeof p.message !== 'string') return undefined;
  const info: DialogInfo = { type, message: p.message, url: typeof p.url === 'string' ? p.url : '' };
  if (type === 'prompt' && typeof p.defaultPrompt === 'string') info.defaultPrompt = p.defaultPrompt;
  return info;
}

/** "an alert dialog", "a confirm dialog": a dialog of this type as a message names it, article included. */
export function aDialog(type: DialogInfo['type']): string {
  return `${type === 'alert' ? 'an' : 'a'} ${type} dialog`;
}

/** The same, starting a sentence. */
export function ADialog(type: DialogInfo['type']): string {
  const phrase = aDialog(type);
  return `${phrase.charAt(0).toUpperCase()}${phrase.slice(1)}`;
}

/** The error every blocked command gets while a dialog is open on its tab. */
export function dialogOpenError(tabId: number, dialog: DialogInfo, tool: string): RelayError {
  const message = dialog.message ? `: ${JSON.stringify(dialog.message.slice(0, 200))}` : '';
  return reasonedError(
    'target_conflict',
    'dialog_open',
    `${ADialog(dialog.type)} is open on tab ${tabId}${message}. Answer it first with \`chrome-relay dialog accept\` or \`chrome-relay dialog dismiss\` (add --tab ${tabId} if it is not the current tab).`,
    { tool, phase: 'resolve', details: { tab: tabId, dialog } },
  );
}

export type Watched<T> = { done: T } | { dialog: DialogInfo };

export class DialogTracker {
  readonly #cdp: CdpSessions;
  readonly #browser: BrowserApi;
  readonly #open = new Map<number, DialogInfo>();
  /** Tabs whose current debugger session has Page enabled by us. */
  readonly #enabled = new Set<number>();
  /** Tabs whose state changed since the worker started: storage must not overwrite them. */
  readonly #touched = new Set<number>();
  readonly #listeners = new Set<(tabId: number, dialog: DialogInfo) => void>();
  #restored: Promise<void> | undefined;

  constructor(cdp: CdpSessions, browser: BrowserApi) {
    this.#cdp = cdp;
    this.#browser = browser;
    cdp.on((event) => this.#observe(event));
    cdp.onDetached((tabId) => {
      // A new session can neither see nor answer a dialog of the old one (see header): forget both.
      this.#enabled.delete(tabId);
      this.#set(tabId, undefined);
    });
  }

  /** The dialog open on the tab, if chrome-relay was told about one. */
  async current(tabId: number): Promise<DialogInfo | undefined> {
    await this.#restore();
    return this.#open.get(tabId);
  }

  /** Whether the tab's current session has the Page domain enabled (by ensureEvents, which every tab tool passes). */
  pageEventsOn(tabId: number): boolean {
    return this.#enabled.has(tabId) && this.#cdp.isAttached(tabId);
  }

  /**
   * Make sure Chrome reports this tab's dialogs to us: Page.enable once per session. It cannot
   * answer while a dialog we were not told about is open, so it is bounded: past the limit the
   * page is reported as unresponsive (`timeout`) rather than hanging the call.
   */
  async ensureEvents(ctx: Pick<ToolContext, 'cdp' | 'deadline'>, tabId: number, tool: string): Promise<void> {
    if (this.pageEventsOn(tabId)) return;
    const limit = Math.max(0, Math.min(ctx.deadline - Date.now(), PAGE_ENABLE_LIMIT_MS));
    const enable = ctx.cdp.send(tabId, 'Page.enable');
    enable.catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), limit);
    });
    try {
      const outcome = await Promise.race([enable.then(() => 'ok' as const), late]);
      if (outcome === 'late') {
        throw reasonedError(
          'timeout',
          'page_busy',
          `Tab ${tabId} does not respond (Page.enable got no answer in ${limit} ms): a dialog that opened before chrome-relay watched this tab may be waiting — answer it in the browser window — or a script is busy. Check the tab with \`chrome-relay snapshot\`, then retry.`,
          { tool, phase: 'resolve', details: { tab: tabId, method: 'Page.enable', waitedMs: limit } },
        );
      }
    } finally {
      clearTimeout(timer);
    }
    this.#enabled.add(tabId);
  }

  /**
   * Run `work` (which must not start before this call) and settle with its value, or with the
   * dialog as soon as one opens on the tab — whichever comes first. An already-open dialog settles
   * at once. The work keeps running in the background if a dialog wins; its failure is swallowed.
   */
  async watch<T>(tabId: number, work: () => Promise<T>): Promise<Watched<T>> {
    const already = await this.current(tabId);
    if (already) return { dialog: already };
    let stop = (): void => undefined;
    const opened = new Promise<Watched<T>>((resolve) => {
      const listener = (tab: number, dialog: DialogInfo): void => {
        if (tab === tabId) resolve({ dialog });
      };
      this.#listeners.add(listener);
      stop = () => this.#listeners.delete(listener);
    });
    try {
      const running = work();
      running.catch(() => undefined);
      return await Promise.race([running.then((done): Watched<T> => ({ done })), opened]);
    } finally {
      stop();
    }
  }

  /** Resolves when a dialog opens on the tab; call the returned cancel to stop listening. */
  onOpened(tabId: number): { opened: Promise<DialogInfo>; cancel: () => void } {
    let cancel = (): void => undefined;
    const opened = new Promise<DialogInfo>((resolve) => {
      const listener = (tab: number, dialog: DialogInfo): void => {
        if (tab === tabId) resolve(dialog);
      };
      this.#listeners.add(listener);
      cancel = () => this.#listeners.delete(listener);
    });
    return { opened, cancel };
  }

  /** The dialog was answered through us; Chrome's Closed event may follow, or not if the page navigated. */
  markClosed(tabId: number): void {
    this.#set(tabId, undefined);
  }

  #observe(event: CdpEvent): void {
    // Dialogs of out-of-process iframes arrive on child sessions: frames are part B.
    if (event.sessionId !== undefined) return;
    if (event.method === 'Page.javascriptDialogOpening') {
      const dialog = toDialogInfo(event.params);
      if (!dialog) return;
      this.#set(event.tabId, dialog);
      for (const listener of [...this.#listeners]) listener(event.tabId, dialog);
    } else if (event.method === 'Page.javascriptDialogClosed') {
      this.#set(event.tabId, undefined);
    }
  }

  #set(tabId: number, dialog: DialogInfo | undefined): void {
    this.#touched.add(tabId);
    const had = this.#open.has(tabId);
    if (dialog) this.#open.set(tabId, dialog);
    else this.#open.delete(tabId);
    if (had || dialog) void this.#persist();
  }

  async #persist(): Promise<void> {
    try {
      await this.#restore();
      await this.#browser.storageSessionSet({ [OPEN_DIALOGS_KEY]: Object.fromEntries(this.#open) });
    } catch (error) {
      // Only a restarted worker reads this back; losing it costs a bounded Page.enable, not a hang.
      console.warn('chrome-relay: could not persist dialog state', error);
    }
  }

  #restore(): Promise<void> {
    this.#restored ??= (async () => {
      try {
        const stored = record((await this.#browser.storageSessionGet(OPEN_DIALOGS_KEY))[OPEN_DIALOGS_KEY]) ?? {};
        for (const [key, value] of Object.entries(stored)) {
          const tabId = Number(key);
          const dialog = toDialogInfo(value);
          if (Number.isInteger(tabId) && dialog && !this.#touched.has(tabId)) this.#open.set(tabId, dialog);
        }
      } catch (error) {
        console.warn('chrome-relay: could not read stored dialog state', error);
      }
    })();
    return this.#restored;
  }
}

const trackers = new WeakMap<CdpSessions, DialogTracker>();

/** The tracker of these sessions, created (and subscribed) on first use. */
export function dialogTracker(ctx: Pick<ToolContext, 'cdp' | 'browser'>): DialogTracker {
  let tracker = trackers.get(ctx.cdp);
  if (!tracker) {
    tracker = new DialogTracker(ctx.cdp, ctx.browser);
    trackers.set(ctx.cdp, tracker);
  }
  return tracker;
}
