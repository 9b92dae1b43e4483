/**
 * Downloads of a tab, for `download --dir` and `wait --download`.
 *
 * Verified in Chromium 156 through chrome.debugger: Page.setDownloadBehavior answers "Cannot not
 * access browser-level commands" and Browser.* does not exist on a tab session, so the download
 * directory cannot be chosen through CDP. What does work: the tab's session reports
 * Page.downloadWillBegin (guid, url, suggested filename) and Page.downloadProgress (guid, state) for
 * downloads the tab starts, while Page is enabled. chrome.downloads then gives the absolute path
 * the browser saved the file to (it has no per-download directory either: only paths relative to
 * the user's download folder).
 *
 * Hence the limits, stated in the docs: files land in the browser's download folder first; `--dir`
 * is honoured by the CLI, which moves the completed file there (CLI and browser share the machine).
 * A browser set to "ask where to save each file" shows its save dialog and the wait times out.
 * Downloads opened in another tab (target=_blank) belong to that tab. The list lives in worker
 * memory: downloads seen before a worker restart are forgotten.
 */
import { RelayError, type ToolResult } from '@chrome-relay/protocol';
import type { CdpEvent, CdpSessions } from '../cdp/cdpSession.js';
import type { CallContext } from '../context/call.js';
import { readSession, writeSession } from '../state/storage.js';

export type DownloadInfo = NonNullable<ToolResult<'wait'>['download']>;

/** The one chrome.downloads call we need; faked in tests. */
export interface DownloadsApi {
  search(query: chrome.downloads.DownloadQuery): Promise<chrome.downloads.DownloadItem[]>;
}

export const chromeDownloadsApi: DownloadsApi = {
  search: (query) => chrome.downloads.search(query),
};

/** chrome.storage.session key: { [tabId]: absolute dir } armed with `download --dir`. */
export const DOWNLOAD_DIRS_KEY = 'downloadDirs';
const PATH_POLL_MS = 100;

export interface TrackedDownload {
  readonly guid: string;
  readonly tabId: number;
  readonly url: string;
  readonly suggestedFilename: string;
  state: 'inProgress' | 'completed' | 'canceled';
  bytes: number;
  /** Already returned by a `wait --download`. */
  reported: boolean;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

const isDirMap = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string');

export class DownloadTracker {
  readonly api: DownloadsApi;
  readonly #downloads: TrackedDownload[] = [];
  readonly #changed = new Set<() => void>();
  /** chrome.downloads ids already handed out, so two downloads of one URL get two files. */
  readonly #claimed = new Set<number>();

  constructor(cdp: CdpSessions, api: DownloadsApi) {
    this.api = api;
    cdp.on((event) => this.observe(event));
  }

  observe(event: CdpEvent): void {
    const p = record(event.params);
    if (event.method === 'Page.downloadWillBegin' && typeof p.guid === 'string') {
      this.#downloads.push({
        guid: p.guid,
        tabId: event.tabId,
        url: typeof p.url === 'string' ? p.url : '',
        suggestedFilename: typeof p.suggestedFilename === 'string' ? p.suggestedFilename : '',
        state: 'inProgress',
        bytes: 0,
        reported: false,
      });
    } else if (event.method === 'Page.downloadProgress' && typeof p.guid === 'string') {
      const download = this.#downloads.find((d) => d.guid === p.guid);
      if (!download) return;
      if (p.state === 'completed' || p.state === 'canceled' || p.state === 'inProgress') download.state = p.state;
      if (typeof p.receivedBytes === 'number') download.bytes = p.receivedBytes;
    } else {
      return;
    }
    for (const notify of [...this.#changed]) notify();
  }

  /** The tab's oldest download no `wait --download` has returned yet. */
  nextUnreported(tabId: number): TrackedDownload | undefined {
    return this.#downloads.find((d) => d.tabId === tabId && !d.reported);
  }

  /** Resolves when the tab's next unreported download has finished (completed or canceled), or undefined at `by`. */
  async waitForFinished(tabId: number, by: number): Promise<TrackedDownload | undefined> {
    const finished = (): TrackedDownload | undefined => {
      const next = this.nextUnreported(tabId);
      return next && next.state !== 'inProgress' ? next : undefined;
    };
    const now = finished();
    if (now) return now;
    return new Promise((resolve) => {
      const done = (value: TrackedDownload | undefined): void => {
        clearTimeout(timer);
        this.#changed.delete(check);
        resolve(value);
      };
      const check = (): void => {
        const found = finished();
        if (found) done(found);
      };
      const timer = setTimeout(() => done(undefined), Math.max(0, by - Date.now()));
      this.#changed.add(check);
    });
  }

  /**
   * The absolute path of a completed download, from chrome.downloads. CDP reports completion a
   * moment before chrome.downloads has renamed the file into place, so this polls until `by`.
   */
  async savedPath(download: TrackedDownload, by: number): Promise<string | undefined> {
    for (;;) {
      const items = [...(await this.api.search({ url: download.url })), ...(await this.api.search({ finalUrl: download.url }))];
      const candidates = items
        .filter((item) => !this.#claimed.has(item.id))
        .sort((a, b) => Date.parse(b.startTime) - Date.parse(a.startTime));
      const interrupted = candidates.find((item) => item.state === 'interrupted');
      const complete = candidates.find((item) => item.state === 'complete' && item.filename !== '');
      if (complete) {
        this.#claimed.add(complete.id);
        return complete.filename;
      }
      if (interrupted && !candidates.some((item) => item.state === 'in_progress')) {
        throw new RelayError('chrome_api_error', `The download of ${download.url} was interrupted: ${interrupted.error ?? 'unknown reason'}.`, {
          phase: 'wait',
          details: { api: 'chrome.downloads', apiMessage: interrupted.error ?? 'interrupted', url: download.url },
        });
      }
      if (Date.now() + PATH_POLL_MS > by) return undefined;
      await new Promise((resolve) => setTimeout(resolve, PATH_POLL_MS));
    }
  }
}


export async function armedDir(ctx: Pick<CallContext, 'browser'>, tabId: number): Promise<string | null> {
  const dirs = (await readSession(ctx.browser, DOWNLOAD_DIRS_KEY, isDirMap)) ?? {};
  return dirs[String(tabId)] ?? null;
}

export async function armDir(ctx: Pick<CallContext, 'browser'>, tabId: number, dir: string): Promise<void> {
  const dirs = (await readSession(ctx.browser, DOWNLOAD_DIRS_KEY, isDirMap)) ?? {};
  await writeSession(ctx.browser, DOWNLOAD_DIRS_KEY, { ...dirs, [String(tabId)]: dir });
}

/** Completed download → the wire shape (path filled in by the caller). */
export function toDownloadInfo(download: TrackedDownload, path: string, dir: string | null): DownloadInfo {
  return { path, url: download.url, suggestedFilename: download.suggestedFilename, bytes: download.bytes, dir };
}
