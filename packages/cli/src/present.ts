/**
 * Who reads a result, and how it is printed for them: the one decision between a result and stdout.
 *
 * - `json` (--json): the whole structure, indented, every field: for programs that want it all.
 * - `line` (stdout is not a terminal: an agent, a script): a result is ONE line of JSON, without the fields that
 *   carry nothing (a `false` that only says nothing out of the ordinary happened: `healed`, `navigated`, `newTab`,
 *   `alreadyRunning`), but never one a program reads: every other field stays (a null too: `pausedSince: null` says
 *   "not paused", `value: null` "no such attribute"; a list even when empty). A list an agent only reads (tabs, console,
 *   network, workspaces, groups, leases) is text, one line per item.
 * - `text` (stdout is a terminal: a person): plain short text: `get title` prints the title, an action one line.
 *
 * Everything goes out through output.ts, so no page string can split a line or reach the terminal raw.
 */
import { quote, type ToolName } from '@chrome-relay/protocol';
import { printJson, printText, stdout } from './output.js';

export type Reader = 'json' | 'line' | 'text';

/** --json wins; else a terminal gets text, anything else (a pipe, a file) one line per result. */
export function readerOf(json: boolean): Reader {
  if (json) return 'json';
  return stdout().isTTY === true ? 'text' : 'line';
}

/** `false` flags that only say "nothing out of the ordinary happened": left out of a compact line. */
const QUIET_WHEN_FALSE: ReadonlySet<string> = new Set(['healed', 'navigated', 'newTab', 'alreadyRunning']);
function carriesNothing(key: string, value: unknown): boolean {
  return value === undefined || (value === false && QUIET_WHEN_FALSE.has(key));
}

/** The result without the fields that carry nothing (one level down too: a nested object's). */
export function compact(result: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) {
    const inner = value !== null && typeof value === 'object' && !Array.isArray(value) ? compactInner(value as Record<string, unknown>) : value;
    if (!carriesNothing(key, inner)) out[key] = inner;
  }
  return out;
}

function compactInner(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key, inner]) => !carriesNothing(key, inner)));
}

/** One line of JSON (the `line` reader's form of a result): toSafeJson escapes every line break inside strings. */
function printLine(result: Readonly<Record<string, unknown>>): void {
  printJson(compact(result), 0);
}

/** A result as its reader wants it: `text` renders the person's line (default: the compact line). */
export function present(result: Readonly<Record<string, unknown>>, json: boolean, text?: () => string): void {
  switch (readerOf(json)) {
    case 'json':
      printJson(result);
      return;
    case 'line':
      printLine(result);
      return;
    case 'text':
      printText(text === undefined ? lineText(compact(result)) : text());
      return;
  }
}

/** A list an agent only reads: text lines for every reader but --json. */
export function presentList(result: Readonly<Record<string, unknown>>, json: boolean, lines: () => readonly string[]): void {
  if (readerOf(json) === 'json') printJson(result);
  else printText(lines().join('\n'));
}

/** `key value, key value`: a person's line for a result with no words of its own. */
export function lineText(result: Readonly<Record<string, unknown>>): string {
  return Object.entries(result)
    .map(([key, value]) => `${key} ${typeof value === 'string' ? quote(value) : JSON.stringify(value)}`)
    .join(', ');
}

type Result = Readonly<Record<string, unknown>>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const obj = (value: unknown): Result | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Result) : undefined);
const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const ref = (value: unknown): string => (typeof value === 'string' && value !== '' ? `@${value}` : '');

/** A JavaScript dialog an action opened: said at the end of its line, with the move. */
function dialogNote(result: Result): string {
  const dialog = obj(result.dialog);
  if (dialog === undefined) return '';
  return `; a ${str(dialog.type)} dialog opened: ${quote(str(dialog.message))} (answer it: chrome-relay dialog accept|dismiss)`;
}

function healedNote(result: Result): string {
  return result.healed === true ? ' (re-found after the page re-rendered it)' : '';
}

/** The page a history move or navigation landed on. */
function pageLine(verb: string, result: Result): string {
  const status = num(result.status);
  const title = str(result.title);
  const head = `${verb}tab ${String(result.tabId)}${result.newTab === true ? ' (a new tab)' : ''}: ${title === '' ? '(untitled)' : quote(title)} ${quote(str(result.url))}`;
  const http = status === undefined ? '' : status >= 400 ? ` — HTTP ${status}: the server answered with an error page` : ` (HTTP ${status})`;
  const ready = result.ready === false ? ' — not ready yet (it is still loading; `chrome-relay wait --load`)' : '';
  return `${head}${http}${ready}${dialogNote(result)}`;
}

/** A person's line for an action's result, by tool; undefined for one without words of its own. */
export function actionText(tool: string, result: Result): string | undefined {
  const tab = `in tab ${String(result.tabId)}`;
  switch (tool as ToolName) {
    case 'navigate':
      return pageLine('', result);
    case 'back':
    case 'forward':
    case 'reload':
      return pageLine(`${tool === 'reload' ? 'reloaded' : `went ${tool}`}: `, result);
    case 'click': {
      const target = obj(result.target);
      const what = typeof result.ref === 'string' ? ref(result.ref) : `(${String(result.x)}, ${String(result.y)})${target === undefined ? '' : ` on ${str(target.tag)} ${quote(str(target.name))}`}`;
      const moved = result.navigated === true ? `; the page went to ${quote(str(result.url))}` : '';
      return `clicked ${what} ${tab}${healedNote(result)}${moved}${dialogNote(result)}`;
    }
    case 'fill':
      return `filled ${ref(result.ref)} ${tab}: ${quote(str(result.value))}${healedNote(result)}`;
    case 'type':
      return `typed ${String(result.typed)} characters into ${str(result.into)} ${tab}${dialogNote(result)}`;
    case 'keys':
      return `pressed ${list(result.pressed).map(String).join(' ')} ${tab}${dialogNote(result)}`;
    case 'select':
      return `selected ${list(result.selected).map((v) => quote(String(v))).join(', ')} in ${ref(result.ref)} ${tab}${healedNote(result)}`;
    case 'check':
    case 'uncheck':
      return `${ref(result.ref)} is ${result.checked === true ? 'checked' : 'unchecked'}${result.changed === true ? '' : ' (it already was)'} ${tab}${healedNote(result)}`;
    case 'hover':
      return `hovering ${ref(result.ref)} ${tab}${healedNote(result)}`;
    case 'focus':
      return `focused ${ref(result.ref)} ${tab}${healedNote(result)}`;
    case 'scroll': {
      const after = obj(result.after);
      const what = result.container === 'element' ? ref(result.ref) || ref(obj(result.scroller)?.ref) || `a ${str(obj(result.scroller)?.tag) || 'scroller'}` : 'the page';
      if (result.moved !== true) return `${what} ${tab} did not move: it already was at that edge (or in view)`;
      return `scrolled ${what} ${tab}${after === undefined ? '' : ` to (${String(after.x)}, ${String(after.y)})`}`;
    }
    case 'drag':
      return `dragged ${ref(obj(result.from)?.ref)} onto ${ref(obj(result.to)?.ref) || quote(str(obj(result.to)?.selector))} ${tab}`;
    case 'upload':
      return `set ${list(result.files).length} file(s) on ${ref(result.ref)} ${tab}`;
    case 'dialog':
      return `${result.action === 'accept' ? 'accepted' : 'dismissed'} the dialog ${tab}`;
    case 'wait': {
      const download = obj(result.download);
      return `${str(result.condition)} met after ${String(result.elapsedMs)} ms ${tab}${download === undefined ? '' : `: ${quote(str(download.path))}`}`;
    }
    default:
      return undefined;
  }
}

/** What `get` and `js` hold for a person: the value itself. */
export function valueText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return '(null)';
  return JSON.stringify(value) ?? String(value);
}

/** One line per item of a list-shaped result; undefined when `tool` returns no list. */
export function listLines(tool: string, result: Result): string[] | undefined {
  switch (tool as ToolName) {
    case 'tabs': {
      const windows = list(result.windows).map((w) => obj(w) ?? {});
      const several = windows.length > 1;
      const lines = windows.flatMap((window) =>
        list(window.tabs).map((t) => {
          const tab = obj(t) ?? {};
          const marks = [tab.active === true ? '[active]' : '', tab.status === 'loading' ? '[loading]' : '', num(tab.groupId) !== undefined && num(tab.groupId) !== -1 ? `[group ${String(tab.groupId)}]` : '', several ? `[window ${String(window.id)}]` : ''].filter(Boolean);
          const title = str(tab.title);
          return `tab ${String(tab.id)}: ${title === '' ? '(untitled)' : quote(title)} — ${quote(str(tab.url))}${marks.length > 0 ? ` ${marks.join(' ')}` : ''}`;
        }),
      );
      // Tabs agents may not use are counted, never shown (the person's, a blocked site's, the browser's own pages).
      const others = num(result.otherTabs) ?? 0;
      const counted = others > 0 ? [`(${others} other tab${others === 1 ? '' : 's'} open that agents may not use: counted, not listed)`] : [];
      return [...(lines.length > 0 ? lines : ['(no tabs agents may use)']), ...counted];
    }
    case 'console': {
      const entries = list(result.entries).map((e) => obj(e) ?? {});
      const lines = entries.map((e) => {
        const where = typeof e.url === 'string' && e.url !== '' ? ` at ${quote(e.url)}${num(e.line) === undefined ? '' : `:${String(e.line)}`}` : '';
        return `#${String(e.id)} ${str(e.level)}${e.source === 'exception' ? ' exception' : ''}: ${quote(str(e.text))}${where}`;
      });
      return [...(lines.length > 0 ? lines : ['(no console messages)']), ...droppedLine(result.dropped, 'older entries')];
    }
    case 'network': {
      const requests = list(result.requests).map((r) => obj(r) ?? {});
      const lines = requests.map((r) => {
        const status = num(r.status) ?? (typeof r.failed === 'string' ? 'failed' : 'pending');
        const failed = typeof r.failed === 'string' ? ` ${quote(r.failed)}` : '';
        const ms = num(r.durationMs);
        return `${str(r.id)} ${str(r.method)} ${String(status)} ${str(r.type).toLowerCase()} ${shortUrl(str(r.url))}${failed}${ms === undefined ? '' : ` ${Math.round(ms)} ms`}`;
      });
      const head = lines.length > 0 ? ['(id method status type url; `chrome-relay network body <id>` reads one body)'] : ['(no requests)'];
      return [...head, ...lines, ...droppedLine(result.dropped, 'older requests')];
    }
    case 'workspace_list': {
      const lines = list(result.workspaces).map((w) => {
        const ws = obj(w) ?? {};
        return `workspace ${str(ws.name)}: window ${String(ws.windowId)}, tabs ${list(ws.tabIds).map(String).join(' ') || '(none)'}${typeof ws.owner === 'string' ? `, leased to ${ws.owner}` : ''}`;
      });
      return lines.length > 0 ? lines : ['(no workspaces)'];
    }
    case 'group_list': {
      const lines = list(result.groups).map((g) => {
        const group = obj(g) ?? {};
        return `group ${quote(str(group.name))}: id ${String(group.groupId)}, ${str(group.color)}, window ${String(group.windowId)}, tabs ${list(group.tabIds).map(String).join(' ') || '(none)'}`;
      });
      const others = num(result.otherGroups) ?? 0;
      const counted = others > 0 ? [`(${others} other tab group${others === 1 ? '' : 's'} of the person's: counted, not named)`] : [];
      return [...(lines.length > 0 ? lines : ['(no tab groups)']), ...counted];
    }
    case 'lease_list': {
      const now = Date.now();
      const lines = list(result.leases).map((l) => {
        const lease = obj(l) ?? {};
        const left = Math.max(0, Math.round(((num(lease.expiresAt) ?? now) - now) / 1000));
        return `lease on ${str(lease.kind)} ${str(lease.target)}: ${str(lease.owner)}, expires in ${left} s unless used`;
      });
      return lines.length > 0 ? lines : ['(no leases)'];
    }
    default:
      return undefined;
  }
}

/** A list line's URL: a data: image or a long query is cut, saying its length (--json has it whole). */
const URL_SHOWN = 200;
function shortUrl(url: string): string {
  return url.length <= URL_SHOWN ? quote(url) : `${quote(`${url.slice(0, URL_SHOWN)}…`)} [${url.length} chars]`;
}

function droppedLine(dropped: unknown, what: string): string[] {
  const n = num(dropped) ?? 0;
  return n > 0 ? [`(${n} ${what} were dropped: the buffer is full)`] : [];
}

/** `Chrome/156.0.1.2` out of a user agent; the user agent itself when it names no Chrome. */
function browserName(userAgent: string): string {
  const version = /(?:HeadlessChrome|Chrome)\/([\d.]+)/.exec(userAgent);
  if (version === null) return quote(userAgent);
  return `${userAgent.includes('HeadlessChrome') ? 'headless ' : ''}Chromium ${version[1] ?? ''}`;
}

/** `status` for a person: who answers, and what `launch` started from this home. */
export function statusText(result: Result): string {
  const host = obj(result.host) ?? {};
  const extension = obj(result.extension);
  const browser = obj(result.browser);
  const profile = typeof result.profile === 'string' ? `profile ${result.profile}` : "the browser's own profile";
  const paused = num(result.pausedSince);
  const lines = [
    extension === undefined
      ? `host ${str(host.version)} (pid ${String(host.pid)}) runs, but its extension has not connected yet`
      : `connected: ${browser === undefined ? 'a browser' : browserName(str(browser.userAgent))}${num(browser?.pid) === undefined ? '' : ` (pid ${String(browser?.pid)})`}, ${profile}; extension ${str(extension.version)}, host ${str(host.version)} (pid ${String(host.pid)})`,
    ...(paused === undefined ? [] : [`paused by the person since ${new Date(paused).toISOString()}: every agent command is refused until they press Resume`]),
    ...launchedLines(result.launched),
  ];
  return lines.join('\n');
}

/** What `launch` started from this home (status, stop). */
function launchedLines(launched: unknown): string[] {
  return list(launched).map((l) => {
    const record = obj(l) ?? {};
    const xvfb = obj(record.xvfb);
    return `launched from this home: pid ${String(record.browserPid)} ${record.browserRunning === true ? 'running' : 'not running'}, profile ${str(record.profile)}${xvfb === undefined ? '' : `, display ${str(xvfb.display)}`}`;
  });
}
