/**
 * How a result is printed: the one decision between a result and stdout, and the words of every result.
 *
 * - `--json`: the whole structure, indented, every field: for programs (the shared runners, scripts) that parse it.
 * - otherwise, whoever reads it (an agent's pipe, a person's terminal): plain short text. `get` and `js` print the
 *   value itself; an action one line saying what happened; a list one line per item; `launch`, `status`, `stop`
 *   short lines. Nothing an agent needs is left out of the text: the HTTP status, a new tab's id, a ref found again
 *   after a re-render, what a click visibly did, a value the page formatted, a dialog that opened, where a file went.
 *
 * The MCP server sends the same text beside `structuredContent` (mcpResults.ts). Page strings inside a line are
 * quoted (escape.ts): no page string can start a line of its own, except a value printed alone, which is the page's
 * text as it is. Everything goes out through output.ts.
 */
import { quote, toSafeJson, type ToolName } from '@chrome-relay/protocol';
import { printJson, printText, printValue } from './output.js';

type Result = Readonly<Record<string, unknown>>;

/** --json: the structure; otherwise the text. */
export function present(result: Result, json: boolean, text: () => string): void {
  if (json) printJson(result);
  else printText(text());
}

/** A value printed alone (get, js, a response body): --json the structure; otherwise the value as it is. */
function presentValue(result: Result, json: boolean, text: () => string): void {
  if (json) printJson(result);
  else printValue(text());
}

/** A tool result as its reader wants it (outputs.ts, aliases.ts). */
export function presentTool(tool: string, result: Result, json: boolean): void {
  if (holdsValue(tool)) presentValue(result, json, () => toolText(tool, result));
  else present(result, json, () => toolText(tool, result));
}

/** Tools whose text is a value of the page, printed as it is (its own lines kept). */
export function holdsValue(tool: string): boolean {
  return tool === 'get' || tool === 'js';
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const obj = (value: unknown): Result | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Result) : undefined);
const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const ref = (value: unknown): string => (typeof value === 'string' && value !== '' ? `@${value}` : '');
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A word the page or the system controls, bare when it cannot be mistaken for anything else, else quoted. */
function word(value: string): string {
  return /^[\w.:#@/[\]=+-]+$/.test(value) ? value : quote(value);
}

/** A URL, bare when it holds nothing that could end it early (a space, a quote) or open a command (a backtick). */
function url(value: unknown): string {
  const text = str(value);
  return /^[^\s"'`\\]+$/.test(text) ? text : quote(text);
}

/** A JavaScript dialog an action opened: said at the end of its line, with the move. */
function dialogNote(result: Result): string {
  const dialog = obj(result.dialog);
  if (dialog === undefined) return '';
  const type = str(dialog.type);
  return `; ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type} dialog opened: ${quote(str(dialog.message))} (answer it: \`chrome-relay dialog accept|dismiss\`)`;
}

function healedNote(result: Result): string {
  return result.healed === true ? ' (found again: the page had re-rendered it)' : '';
}

/** What a click visibly did, from the control's own state: `opened listbox "Time zone"`. */
function actedNote(result: Result): string {
  const acted = obj(result.acted);
  if (acted === undefined) return '';
  const popup = obj(acted.popup);
  const name = str(popup?.name);
  const what = `${str(acted.what)}${popup === undefined ? '' : ` ${word(str(popup.role))}${name === '' ? '' : ` ${quote(name)}`}`}`;
  return ` (${what}${acted.releaseHeld === true ? '; the press did it, its release was held back' : ''})`;
}

/** Where a history move or a navigation left the tab: the URL, the HTTP status, the title. */
function pageLine(verb: string, result: Result): string {
  const status = num(result.status);
  const title = str(result.title);
  const http = status === undefined ? '' : status >= 400 ? ` (HTTP ${status}: the server answered with an error page)` : ` (${status})`;
  const ready = result.ready === false ? '; still loading (`chrome-relay wait --load` waits for it)' : '';
  return `${verb} ${url(result.url)}${http}${title === '' ? '' : ` ${quote(title)}`}${ready}${dialogNote(result)}`;
}

/** What the element named by a click at a point is: `button#inc "Increment" @e5`. */
function targetText(target: Result): string {
  const id = str(target.id);
  const name = str(target.name);
  return [`${word(str(target.tag))}${id === '' ? '' : `#${word(id)}`}`, name === '' ? '' : quote(name), ref(target.ref)].filter(Boolean).join(' ');
}

function scrollText(result: Result): string {
  const target = ref(result.ref);
  // A ref brought into view scrolls whatever holds it, reported as the page.
  if (target !== '' && result.container === 'page') return result.moved === true ? `scrolled ${target} into view` : `${target} was already in view`;
  const scroller = obj(result.scroller);
  const named = scroller === undefined ? '' : ref(scroller.ref) || `${word(str(scroller.tag))}${str(scroller.id) === '' ? '' : `#${word(str(scroller.id))}`}`;
  const what = named !== '' ? `${named}${target === '' ? ' (the page could not move that way)' : ` (the scroller ${target} is in)`}` : target !== '' ? target : 'the page';
  if (result.moved !== true) return `${what} did not move: it already was at that edge`;
  const after = obj(result.after);
  return `scrolled ${what}${after === undefined ? '' : ` to (${String(after.x)}, ${String(after.y)})`}`;
}

const WAITED: Readonly<Record<string, string>> = {
  text: 'the text is on the page',
  url: 'the URL matches',
  load: 'the page has loaded',
  networkIdle: 'the network is idle',
  fn: 'the expression is true',
  selector: 'the selector matches a visible element',
};

function waitText(result: Result): string {
  const download = obj(result.download);
  const after = `after ${String(result.elapsedMs)} ms`;
  if (download !== undefined) {
    const moved = str(download.browserPath) === '' ? '' : ` (moved from ${quote(str(download.browserPath))})`;
    return `downloaded ${quote(str(download.path))}${moved}, ${plural(num(download.bytes) ?? 0, 'byte')}, ${after}`;
  }
  return `${WAITED[str(result.condition)] ?? str(result.condition)} ${after}: ${url(result.url)}`;
}

/** `5, 6 and 7 failed: …`: what an all-or-nothing or partial tab operation did not do. */
function failedNote(result: Result): string {
  const failed = list(result.failed).map((f) => obj(f) ?? {});
  return failed.map((f) => `; not ${word(str(f.target))}: ${str(f.code)}: ${str(f.message)}`).join('');
}

function leaseText(lease: Result): string {
  const left = Math.max(0, Math.round(((num(lease.expiresAt) ?? Date.now()) - Date.now()) / 1000));
  return `lease on ${str(lease.kind)} ${word(str(lease.target))}: ${word(str(lease.owner))}, expires in ${left} s unless used`;
}

/** What `get` and `js` hold: the value itself (strings as they are, any other JSON value as compact JSON; an empty one said). */
export function valueText(result: Result): string {
  const value = result.value;
  if (result.what === 'attr' && value === null) return '(no such attribute)';
  if (value === undefined) return result.dialog === undefined ? 'undefined' : `(no value${dialogNote(result)})`;
  // Nothing printed would read as nothing answered: an empty value is said (js's value as the JSON it is).
  if (value === '') return result.what === undefined ? '""' : '(empty)';
  if (typeof value === 'string') return value;
  return toSafeJson(value);
}

/**
 * The plain text of a tool's result: what the CLI prints without --json and the text an MCP client reads. The
 * CLI's own additions (a file written, a display started) are said by the command that adds them (outputs.ts).
 */
export function toolText(tool: string, result: Result): string {
  const lines = listLines(tool, result);
  if (lines !== undefined) return lines.join('\n');
  return actionText(tool, result) ?? otherText(tool, result);
}

/** One line for an action's result, by tool; undefined for a tool that is no action. */
export function actionText(tool: string, result: Result): string | undefined {
  switch (tool as ToolName) {
    case 'navigate':
      return pageLine(result.newTab === true ? `opened tab ${String(result.tabId)}:` : `navigated tab ${String(result.tabId)} to`, result);
    case 'back':
    case 'forward':
      return pageLine(`went ${tool} to`, result);
    case 'reload':
      return pageLine('reloaded', result);
    case 'click': {
      const target = obj(result.target);
      const what = typeof result.ref === 'string' ? ref(result.ref) : `at (${String(result.x)}, ${String(result.y)})${target === undefined ? '' : ` on ${targetText(target)}`}`;
      const moved = result.navigated === true ? `; the page went to ${url(result.url)}` : '';
      return `clicked ${what}${actedNote(result)}${healedNote(result)}${moved}${dialogNote(result)}`;
    }
    case 'fill':
      return `filled ${ref(result.ref)}${result.formatted === true ? ` (the page formatted it as ${quote(str(result.value))})` : ''}${healedNote(result)}`;
    case 'type':
      return `typed ${plural(num(result.typed) ?? 0, 'character')} into ${word(str(result.into))}${dialogNote(result)}`;
    case 'keys':
      return `pressed ${list(result.pressed).map((key) => word(String(key))).join(' ')}${dialogNote(result)}`;
    case 'select':
      return `selected ${list(result.selected).map((v) => quote(String(v))).join(', ') || 'nothing'} in ${ref(result.ref)}${healedNote(result)}`;
    case 'check':
    case 'uncheck': {
      const state = result.checked === true ? 'checked' : 'unchecked';
      return `${result.changed === true ? `${state} ${ref(result.ref)}` : `${ref(result.ref)} was already ${state}`}${healedNote(result)}`;
    }
    case 'dblclick':
      return `double-clicked ${ref(result.ref)}${healedNote(result)}`;
    case 'hover':
      return `hovering over ${ref(result.ref)}${healedNote(result)}`;
    case 'focus':
      return `focused ${ref(result.ref)}${healedNote(result)}`;
    case 'scroll':
      return `${scrollText(result)}${healedNote(result)}`;
    case 'drag': {
      const to = obj(result.to) ?? {};
      const onto = ref(to.ref) || (typeof to.selector === 'string' ? quote(to.selector) : `(${String(to.x)}, ${String(to.y)})`);
      return `dragged ${ref(obj(result.from)?.ref)} onto ${onto}${healedNote(result)}`;
    }
    case 'upload': {
      const files = plural(list(result.files).length, 'file');
      return `${result.via === 'chooser' ? `set ${files} in the file chooser ${ref(result.ref)} opened` : `set ${files} on ${ref(result.ref)}`}${healedNote(result)}`;
    }
    case 'dialog': {
      const dialog = obj(result.dialog);
      const done = result.action === 'accept' ? 'accepted' : 'dismissed';
      return dialog === undefined ? `${done} the dialog` : `${done} the ${str(dialog.type)} dialog ${quote(str(dialog.message))}`;
    }
    case 'wait':
      return waitText(result);
    default:
      return undefined;
  }
}

/** The text of a result that is neither an action nor a list. */
function otherText(tool: string, result: Result): string {
  switch (tool as ToolName) {
    case 'status':
      return statusText(result);
    case 'get':
    case 'js':
      return valueText(result);
    case 'close':
      return `closed ${list(result.closed).length === 1 ? 'tab' : 'tabs'} ${list(result.closed).map(String).join(', ')}`;
    case 'download':
      return `downloads of tab ${String(result.tabId)} go to ${quote(str(result.dir))} (\`chrome-relay wait --download\` waits for each)`;
    case 'screenshot': {
      const masked = list(result.masked).length;
      return `screenshot of tab ${String(result.tabId)} (${str(result.format)}, ${String(result.width)}×${String(result.height)} CSS px)${masked === 0 ? '' : `; ${plural(masked, 'frame')} of a blocked site painted over`}`;
    }
    case 'record_start':
      return `recording tab ${String(result.tabId)} (\`chrome-relay record stop --out <dir>\` stops it)`;
    case 'record_stop':
      return framesText(result, list(result.frames).length, '');
    case 'network_body':
      return result.base64Encoded === true ? `(a binary ${str(result.mimeType) || 'response'} body, ${String(str(result.body).length)} base64 characters)` : str(result.body);
    case 'network_har':
      return `a HAR log of ${plural(num(result.entries) ?? 0, 'request')} in tab ${String(result.tabId)}`;
    case 'workspace_create':
      return `workspace ${word(str(result.name))}: window ${String(result.windowId)}, tab ${String(result.tabId)}${typeof result.owner === 'string' ? `, leased to ${word(result.owner)}` : ''}`;
    case 'workspace_close':
      return `closed workspace ${word(str(result.name))} (window ${String(result.windowId)}, ${plural(list(result.closedTabs).length, 'tab')})`;
    case 'group_create':
    case 'group_add':
    case 'group_close': {
      const done = tool === 'group_create' ? 'grouped' : tool === 'group_add' ? 'added' : 'closed';
      const tabs = list(result.applied).map(String).join(', ');
      return `${done} ${tabs === '' ? 'no tabs' : `tabs ${tabs}`}${tool === 'group_close' ? ' of' : tool === 'group_add' ? ' to' : ' as'} group ${quote(str(result.name))} (id ${String(result.groupId)})${failedNote(result)}`;
    }
    case 'lease_claim':
      return leaseText(obj(result.lease) ?? {});
    case 'lease_release': {
      const released = list(result.released).map((l) => obj(l) ?? {});
      return released.length === 0 ? 'released nothing (no lease of yours matched)' : `released ${released.map((l) => `${str(l.kind)} ${word(str(l.target))}`).join(', ')}`;
    }
    case 'get_box':
      return `${ref(result.ref)}: x ${String(result.x)}, y ${String(result.y)}, width ${String(result.width)}, height ${String(result.height)}${healedNote(result)}`;
    case 'get_style': {
      const style = obj(result.style) ?? {};
      const cut = new Set(list(result.truncated).map(String));
      return Object.entries(style)
        .map(([name, value]) => `${name}: ${quote(str(value))}${cut.has(name) ? ' (cut at 4,096 characters)' : ''}`)
        .join('\n');
    }
    default:
      // Tools no command prints (internal ones): their fields.
      return toSafeJson(result);
  }
}

/**
 * `12 frames of tab 5 (2 more dropped at the cap)`, `where` they went, and what was painted over or left out because
 * a frame showed a site the person blocked.
 */
export function framesText(result: Result, frames: number, where: string): string {
  const dropped = num(result.dropped) ?? 0;
  const masked = list(result.masked).map((m) => obj(m) ?? {});
  const withheld = num(result.withheld) ?? 0;
  return [
    `${plural(frames, 'frame')} of tab ${String(result.tabId)}${where}${dropped > 0 ? ` (${dropped} more dropped at the cap)` : ''}`,
    ...masked.map((m) => `; ${plural(num(m.frames) ?? 0, 'frame')} show ${quote(str(m.origin))} painted over (blocked by ${quote(str(m.rule))})`),
    withheld > 0 ? `; ${plural(withheld, 'frame')} left out: a blocked site in them could not be painted over` : '',
  ].join('');
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
        return `${word(str(r.id))} ${word(str(r.method))} ${String(status)} ${word(str(r.type).toLowerCase())} ${shortUrl(str(r.url))}${failed}${ms === undefined ? '' : ` ${Math.round(ms)} ms`}`;
      });
      const head = lines.length > 0 ? ['(id method status type url; `chrome-relay network body <id>` reads one body)'] : ['(no requests)'];
      return [...head, ...lines, ...droppedLine(result.dropped, 'older requests')];
    }
    case 'workspace_list': {
      const lines = list(result.workspaces).map((w) => {
        const ws = obj(w) ?? {};
        return `workspace ${word(str(ws.name))}: window ${String(ws.windowId)}, tabs ${list(ws.tabIds).map(String).join(' ') || '(none)'}${typeof ws.owner === 'string' ? `, leased to ${word(ws.owner)}` : ''}`;
      });
      return lines.length > 0 ? lines : ['(no workspaces)'];
    }
    case 'group_list': {
      const lines = list(result.groups).map((g) => {
        const group = obj(g) ?? {};
        return `group ${quote(str(group.name))}: id ${String(group.groupId)}, ${word(str(group.color))}, window ${String(group.windowId)}, tabs ${list(group.tabIds).map(String).join(' ') || '(none)'}`;
      });
      const others = num(result.otherGroups) ?? 0;
      const counted = others > 0 ? [`(${others} other tab group${others === 1 ? '' : 's'} of the person's: counted, not named)`] : [];
      return [...(lines.length > 0 ? lines : ['(no tab groups)']), ...counted];
    }
    case 'lease_list': {
      const lines = list(result.leases).map((l) => leaseText(obj(l) ?? {}));
      return lines.length > 0 ? lines : ['(no leases)'];
    }
    default:
      return undefined;
  }
}

/** A list line's URL: a data: image or a long query is cut, saying its length (--json has it whole). */
const URL_SHOWN = 200;
function shortUrl(text: string): string {
  return text.length <= URL_SHOWN ? quote(text) : `${quote(`${text.slice(0, URL_SHOWN)}…`)} [${text.length} chars]`;
}

function droppedLine(dropped: unknown, what: string): string[] {
  const n = num(dropped) ?? 0;
  return n > 0 ? [`(${n} ${what} were dropped: the buffer is full)`] : [];
}

/** `headless Chromium 156.0.1.2` out of a user agent; the user agent itself when it names no Chrome. */
function browserName(userAgent: string): string {
  const version = /(?:HeadlessChrome|Chrome)\/([\d.]+)/.exec(userAgent);
  if (version === null) return quote(userAgent);
  return `${userAgent.includes('HeadlessChrome') ? 'headless ' : ''}Chromium ${version[1] ?? ''}`;
}

/** `status`: who answers, and what `launch` started from this home (the CLI adds `launched`). */
export function statusText(result: Result): string {
  const host = obj(result.host) ?? {};
  const extension = obj(result.extension);
  const browser = obj(result.browser);
  const pid = num(browser?.pid);
  const launched = list(result.launched).map((l) => obj(l) ?? {});
  const ours = pid !== undefined && launched.some((l) => l.browserPid === pid);
  const profile = typeof result.profile === 'string' ? `profile ${result.profile}` : "the browser's own profile";
  const paused = num(result.pausedSince);
  const lines = [
    extension === undefined
      ? `host ${str(host.version)} (pid ${String(host.pid)}) runs, but its extension has not connected yet`
      : `connected: ${browser === undefined ? 'a browser' : browserName(str(browser.userAgent))}${pid === undefined ? '' : ` (pid ${pid})`}${ours ? ', started by `chrome-relay launch`' : ''}, ${profile}; extension ${str(extension.version)}, host ${str(host.version)}`,
    ...(paused === undefined ? [] : [`paused by the person since ${new Date(paused).toISOString()}: every agent command is refused until they press Resume`]),
    ...launched.filter((l) => !ours || l.browserPid !== pid).map(launchedLine),
  ];
  return lines.join('\n');
}

/** A browser `launch` started from this home that is not the one connected (status). */
function launchedLine(record: Result): string {
  const xvfb = obj(record.xvfb);
  return `also launched from this home: pid ${String(record.browserPid)} ${record.browserRunning === true ? 'running' : 'not running'}, profile ${str(record.profile)}${xvfb === undefined ? '' : `, display ${str(xvfb.display)}`}`;
}

interface BatchOutcome {
  results: readonly { index: number; step: string; ok: boolean; result?: unknown; error?: { code: string; message: string }; notices?: readonly unknown[] }[];
  stoppedAt: number | null;
}

/**
 * A batch's text: each step under its name, `[index] label: its text`. A step whose text runs over several lines (a
 * snapshot, a page's text) has them indented under its name, so no line a page wrote can pass for a step of its own.
 */
export function batchText(outcome: BatchOutcome): string {
  const lines = outcome.results.flatMap((step) => {
    const head = `[${step.index}] ${step.step}`;
    const notices = (step.notices ?? []).map((n) => obj(n) ?? {}).map((n) => `  (notice ${str(n.notice)}: ${str(n.message)})`);
    if (!step.ok) return [`${head} failed: ${str(step.error?.code)}: ${str(step.error?.message)}`, ...notices];
    const text = typeof step.result === 'string' ? step.result : toSafeJson(step.result);
    const own = text.split('\n');
    return [...(own.length === 1 ? [`${head}: ${text}`] : [`${head}:`, ...own.map((line) => `  ${line}`)]), ...notices];
  });
  const stopped = outcome.stoppedAt === null ? [] : [`(stopped at step ${outcome.stoppedAt}: the steps after it did not run; --no-bail runs them all)`];
  return [...lines, ...stopped].join('\n');
}
