/**
 * The one URL gate: what every URL an agent hands chrome-relay (navigate, workspace create --url; the CLI, MCP and
 * batch all end here) and every tab it names may be, and how such a URL is opened safely.
 *
 * Why a gate and not a list of schemes in a tool: a URL is also a way to end the person's browser. Chromium 156,
 * observed: CDP Page.navigate to about:version or about:settings, or to about:blank#x in a fresh tab, takes the whole
 * browser down with every tab the person had open (the browser process crashes). chrome.tabs refuses the debug URLs
 * that quit or crash it (chrome://quit, chrome://crash…) but opens chrome://settings and its like, which are the
 * person's own controls. So:
 *
 * - http, https: opened through the debugger (navigate waits on the new document's own events);
 * - about:blank (with a query or fragment too): opened with chrome.tabs, never Page.navigate; with a fragment only in
 *   a new tab — chrome.tabs.update of a tab still on its first about:blank to about:blank#x crashed the browser too
 *   (Chromium 156, no debugger attached), and that is what an existing about:blank tab would do;
 * - data: opened with chrome.tabs, in a new tab only (chrome.tabs.update ignores data: URLs);
 * - file: the person's files, only when the person turned "Let agents open local files" on (local_files otherwise);
 * - chrome-extension: pages of extensions, chrome-relay's own controls among them (person_page);
 * - chrome:, about: (any other page), devtools:, view-source:, chrome-untrusted:, chrome-search: and the other
 *   browsers' own schemes: the browser's own pages (browser_page) — settings, passwords, history, extensions, and the
 *   pages that end or crash it;
 * - anything else (javascript:, blob:, filesystem:, ws:, mailto:, an unknown scheme, no URL at all): not a page to
 *   open (invalid_arguments naming the field), with the way to do what the agent meant.
 *
 * The site block list is the other half of the gate (policy.ts checks it against the same URL).
 */
import { reasonedError, RelayError, toolLabel } from '@chrome-relay/protocol';
import { originOf } from './frameBlocks.js';

/** How a URL that may be opened is opened: through the debugger (Page.navigate), or with chrome.tabs. */
export type OpenWith = 'debugger' | 'tabs';

export type UrlClass =
  | { readonly kind: 'web' | 'blank' | 'data' | 'file'; readonly href: string; readonly openWith: OpenWith; readonly newTabOnly?: true }
  | { readonly kind: 'extension' | 'browser'; readonly href: string }
  | { readonly kind: 'unopenable'; readonly why: string };

/** The browser's own pages, in Chrome and in the browsers built on Chromium (each has its own name for chrome:). */
const BROWSER_SCHEMES = new Set(['chrome:', 'about:', 'devtools:', 'view-source:', 'chrome-untrusted:', 'chrome-search:', 'chrome-native:', 'chrome-error:', 'edge:', 'brave:', 'opera:', 'vivaldi:']);
const EXTENSION_SCHEMES = new Set(['chrome-extension:', 'extension:', 'moz-extension:']);

const WHY: Readonly<Record<string, string>> = {
  'javascript:': 'a javascript: URL runs code instead of opening a page: run it with `chrome-relay js`',
  'blob:': 'a blob: URL belongs to the page that made it: open it from that page (click its link)',
  'filesystem:': 'a filesystem: URL belongs to the page that made it: open it from that page (click its link)',
  'ws:': 'a WebSocket URL is not a page',
  'wss:': 'a WebSocket URL is not a page',
};

/** What `raw` is, and how it opens when it may (see the header). Pure: the person's settings are applied by urlRefusal. */
export function classifyUrl(raw: string): UrlClass {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { kind: 'unopenable', why: 'it is not an absolute URL (e.g. https://example.com)' };
  }
  const scheme = url.protocol.toLowerCase();
  if (scheme === 'http:' || scheme === 'https:') return { kind: 'web', href: url.href, openWith: 'debugger' };
  if (scheme === 'about:' && url.pathname.toLowerCase() === 'blank') return { kind: 'blank', href: url.href, openWith: 'tabs', ...(url.hash === '' ? {} : { newTabOnly: true as const }) };
  if (scheme === 'data:') return { kind: 'data', href: url.href, openWith: 'tabs', newTabOnly: true };
  if (scheme === 'file:') return { kind: 'file', href: url.href, openWith: 'debugger' };
  if (EXTENSION_SCHEMES.has(scheme)) return { kind: 'extension', href: url.href };
  if (BROWSER_SCHEMES.has(scheme)) return { kind: 'browser', href: url.href };
  return { kind: 'unopenable', why: WHY[scheme] ?? `${scheme} is not a scheme chrome-relay opens` };
}

/** The switches of the person's that the gate reads (policy/settings.ts). */
export interface UrlSettings {
  readonly agentFiles: boolean;
}

function schemeOf(url: string): string {
  const colon = url.indexOf(':');
  return colon > 0 ? url.slice(0, colon + 1).toLowerCase() : '';
}

/** Where a URL or a tab is named in a message. */
type Where = { tab: number } | { url: string };

function what(where: Where): string {
  return 'tab' in where ? `Tab ${where.tab} shows` : 'That URL is';
}

function whereDetails(where: Where, url: string): Record<string, unknown> {
  // A tab's own URL is never repeated: only the scheme or origin says what it shows.
  return 'tab' in where ? { tab: where.tab, origin: originOf(url) || schemeOf(url) } : { url };
}

export function personPageError(tool: string, where: Where, url: string): RelayError {
  return reasonedError(
    'target_conflict',
    'person_page',
    `${what(where)} a page of a browser extension (${originOf(url) || 'chrome-extension:'}) — chrome-relay's own controls or another extension's — and those are the person's: agents never see, open or act in them, and nothing was done. Work in your own tabs (\`chrome-relay navigate <url>\`).`,
    { tool, phase: 'resolve', retryable: false, details: { ...('tab' in where ? { tab: where.tab } : {}), origin: originOf(url) } },
  );
}

function browserPageError(tool: string, where: Where, url: string): RelayError {
  return reasonedError(
    'target_conflict',
    'browser_page',
    `${what(where)} one of the browser's own pages (${schemeOf(url)}): its settings, passwords, history and extensions are the person's, and some of these pages end or crash the browser, so agents never open or act in them; nothing was done. Work in web pages (http or https, \`chrome-relay navigate <url>\`); if you need something from the browser itself, ask the person.`,
    { tool, phase: 'resolve', retryable: false, details: whereDetails(where, url) },
  );
}

function localFilesError(tool: string, where: Where, url: string): RelayError {
  return reasonedError(
    'target_conflict',
    'local_files',
    `${what(where)} a local file (file:): the person's files are open to agents only when the person allows it ("Let agents open local files" in chrome-relay's options, off by default); nothing was opened or read. Ask the person to turn it on, or serve the file over http.`,
    { tool, phase: 'resolve', retryable: false, details: whereDetails(where, url) },
  );
}

function unopenableError(tool: string, url: string, why: string): RelayError {
  return new RelayError(
    'invalid_arguments',
    `Invalid arguments for ${toolLabel(tool)}: url ${JSON.stringify(url)} is not a page chrome-relay opens (${why}). It opens http and https pages, about:blank, data: URLs (in a new tab), and local files when the person allows them.`,
    { tool, phase: 'validate', details: { field: 'url', value: url } },
  );
}

/** The gate for a URL an agent asks to open: undefined when it may be opened (the block list aside), else why not. */
export function urlRefusal(tool: string, raw: string, settings: UrlSettings): RelayError | undefined {
  const url = raw.trim();
  const found = classifyUrl(url);
  switch (found.kind) {
    case 'unopenable':
      return unopenableError(tool, raw, found.why);
    case 'extension':
      return personPageError(tool, { url }, found.href);
    case 'browser':
      return browserPageError(tool, { url }, found.href);
    case 'file':
      return settings.agentFiles ? undefined : localFilesError(tool, { url }, found.href);
    default:
      return undefined;
  }
}

/**
 * The gate for a tab an agent names, by what it shows (its committed and pending URL): an extension's page, one of
 * the browser's own pages, or a local file the person keeps to themselves. undefined when none of these.
 */
export function pageRefusal(tool: string, tab: number, urls: readonly (string | undefined)[], settings: UrlSettings): RelayError | undefined {
  for (const url of urls) {
    if (url === undefined || url === '') continue;
    const scheme = schemeOf(url);
    if (EXTENSION_SCHEMES.has(scheme)) return personPageError(tool, { tab }, url);
    // about:blank and about:srcdoc are a page's own documents; every other about: page is the browser's.
    if (BROWSER_SCHEMES.has(scheme) && !/^about:(blank|srcdoc)([?#]|$)/i.test(url)) return browserPageError(tool, { tab }, url);
    if (scheme === 'file:' && !settings.agentFiles) return localFilesError(tool, { tab }, url);
  }
  return undefined;
}

/** A page of an extension (chrome-relay's own popup and options, or another extension's): the person's, never an agent's. */
export function isPersonPage(url: string | undefined): boolean {
  return url !== undefined && EXTENSION_SCHEMES.has(schemeOf(url));
}

/**
 * The URLs the block list is checked against for a tab: its own, and for a blob: or filesystem: document the origin
 * that made it (blob:https://bank.example/… is the bank's page).
 */
export function blockCheckedUrls(urls: readonly (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const url of urls) {
    if (url === undefined || url === '') continue;
    out.push(url);
    const scheme = schemeOf(url);
    if (scheme === 'blob:' || scheme === 'filesystem:') {
      const inner = url.slice(scheme.length);
      if (/^https?:/i.test(inner)) out.push(inner);
    }
  }
  return out;
}
