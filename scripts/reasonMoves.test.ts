import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_TABLE, REASONED_CODES, reasonInfo, reasonsOf, type ReasonedCode } from '../packages/protocol/src/index.js';
import { renderErrorsDoc } from '../packages/cli/src/docsRender.js';
import { explainLostHost } from '../packages/cli/src/lostHost.js';
import { renderSkill } from '../packages/cli/src/skill.js';
import { descriptorFor } from '../packages/cli/src/testing/fakeHost.js';
import { staleRefError } from '../packages/extension/src/refs/refTarget.js';
import { hostGoneError, type HostExit } from '../packages/native-host/src/relay.js';
import { reasonedError } from '../packages/protocol/src/reasons.js';

/**
 * The walk over every (code, details.reason) pair of packages/protocol/src/reasons.ts: each reason's move is what an
 * agent reads in SKILL.md and docs/errors.md, and what every message of that reason says where it is thrown.
 *
 * "Says the move" is checked the way a reader would: every command the move names (`chrome-relay <command>`, up to
 * its first flag or placeholder) is named in the message; a move that names no command lists the words of it every
 * message carries (`says`, one of them at least). Throw sites are found in the sources: each `reasonedError(` (and
 * resolveCall.ts's `conflict(`, which builds them) with its code, reason and message; a message held in a variable is
 * read in the function that builds it. Sites whose reason is chosen at run time are listed below and checked by
 * running them for every reason they can give.
 */
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

type Pair = { code: ReasonedCode; reason: string };
const pairs: Pair[] = REASONED_CODES.flatMap((code) => reasonsOf(code).map((reason) => ({ code, reason })));

/** The commands a move names: `chrome-relay dialog accept --tab 3` → `chrome-relay dialog accept`. */
function commandsOf(move: string): string[] {
  return [...move.matchAll(/`chrome-relay ([^`]*)`/g)].map((match) => {
    const words: string[] = [];
    for (const word of (match[1] ?? '').split(/\s+/)) {
      if (word === '' || /^[-<@"'A-Z]/.test(word)) break;
      words.push(word);
    }
    return `chrome-relay ${words.join(' ')}`.trim();
  });
}

/** What every message of the pair must carry, and why; a move that says nothing checkable is a failure of its own. */
function required(code: ReasonedCode, reason: string): { all: string[]; any: readonly string[] } {
  const info = reasonInfo(code, reason as never);
  return { all: commandsOf(info.move), any: info.says ?? [] };
}

function missing(message: string, code: ReasonedCode, reason: string): string[] {
  const { all, any } = required(code, reason);
  const gaps = all.filter((command) => !message.includes(command));
  if (any.length > 0 && !any.some((words) => message.toLowerCase().includes(words.toLowerCase()))) gaps.push(`one of ${JSON.stringify(any)}`);
  return gaps;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name === 'testing') return [];
    return statSync(path).isDirectory() ? sources(path) : /(?<!\.test)\.ts$/.test(name) ? [path] : [];
  });
}

/** The top-level arguments of the call whose "(" ends at `start`, as written. */
function argsAt(text: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let from = start;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      else if (quote === '`' && ch === '$' && text[i + 1] === '{') {
        // A template's ${…} may hold quotes of its own: skip it whole.
        let inner = 0;
        for (i += 2; i < text.length; i++) {
          if (text[i] === '{') inner++;
          else if (text[i] === '}') {
            if (inner === 0) break;
            inner--;
          }
        }
      }
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) {
        args.push(text.slice(from, i).trim());
        break;
      }
      depth--;
    } else if (ch === ',' && depth === 0) {
      args.push(text.slice(from, i).trim());
      from = i + 1;
    }
  }
  return args;
}

const literal = (arg: string | undefined): string | undefined => (arg === undefined ? undefined : /^'([a-z_]+)'$/.exec(arg)?.[1]);

interface Site {
  file: string;
  line: number;
  code: string | undefined;
  reason: string | undefined;
  /** The message as written; for a variable, the text of the function around the call, which builds it. */
  message: string;
}

/** The text from the start of the function declaration enclosing `index` (at the file's top level or in a class) to the call. */
function enclosing(text: string, index: number): string {
  const before = text.slice(0, index);
  const starts = [...before.matchAll(/^\s*(?:export )?(?:async )?function |^ {2}(?:private |async )*\w+\(.*\)(?:: [^{]+)? \{$/gm)];
  const start = starts.at(-1)?.index ?? 0;
  return text.slice(start, index + 2000);
}

/** `const name = '…'` (or a template) of a file: a message's `${name}` reads as its text. */
function constants(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(/\bconst (\w+) =\s*(`(?:[^`\\]|\\.)*`|'(?:[^'\\]|\\.)*')/g)) found.set(match[1] ?? '', match[2] ?? '');
  return found;
}

function scan(): Site[] {
  const sites: Site[] = [];
  for (const path of sources(join(repo, 'packages'))) {
    const file = relative(repo, path);
    const text = readFileSync(path, 'utf8');
    const consts = constants(text);
    const expand = (message: string): string => message.replace(/\$\{(\w+)\}/g, (whole, name: string) => consts.get(name) ?? whole);
    for (const match of text.matchAll(/\breasonedError\(|\bconflict\((?='[a-z_]+')/g)) {
      const at = (match.index ?? 0) + match[0].length;
      const args = argsAt(text, at);
      const viaConflict = match[0].startsWith('conflict');
      const [code, reason, message] = viaConflict ? ["'target_conflict'", args[0], args[1]] : args;
      const written = message ?? '';
      const isVariable = /^[A-Za-z_$][\w$.]*$/.test(written);
      sites.push({
        file,
        line: text.slice(0, match.index).split('\n').length,
        code: literal(code),
        reason: literal(reason),
        message: isVariable ? expand(enclosing(text, match.index ?? 0)) : expand(written),
      });
    }
  }
  return sites;
}

/**
 * Sites whose reason is chosen at run time, each checked below by running it (or, for a reason passed through, by
 * the site that first built the error).
 */
const RUNTIME_SITES: Record<string, string> = {
  // staleRefError: every stale_ref reason, the move taken from the table word for word.
  'packages/extension/src/refs/refTarget.ts': 'stale_ref by reason',
  // conflict(): its callers are sites of their own (scanned as `conflict('reason', message…)`).
  'packages/extension/src/targeting/resolveCall.ts': 'conflict()',
  // hostGoneError: the reason of each way the host goes.
  'packages/native-host/src/relay.ts': 'hostGoneError by HostExit',
};

/** Sites whose message is another site's message of the same reason, passed on (checked there). */
const PASSED_ON: Record<string, string> = {
  // vetNamed(): "None of the tabs can be used" with each tab's own refusal, a lease's from leases.ts.
  'packages/extension/src/targeting/prepareCall.ts': 'target_conflict/leased',
};

describe('every (code, reason) says its move', () => {
  const skill = renderSkill();
  const skillFile = readFileSync(join(repo, 'SKILL.md'), 'utf8');
  const errorsDoc = renderErrorsDoc();
  const sites = scan();

  it('finds the throw sites (the scan itself works)', () => {
    expect(commandsOf('Run `chrome-relay dialog accept --tab 3` or `chrome-relay snapshot`; then `chrome-relay type -s @e7 "x"`.')).toEqual([
      'chrome-relay dialog accept',
      'chrome-relay snapshot',
      'chrome-relay type',
    ]);
    expect(argsAt("'timeout', 'busy', `a ${f('x, y')} b`, { c: 1 })", 0)).toEqual(["'timeout'", "'busy'", "`a ${f('x, y')} b`", '{ c: 1 }']);
    expect(sites.length).toBeGreaterThan(60);
    expect(sites.some((site) => site.file.endsWith('resolveCall.ts') && site.reason === 'agent_mismatch')).toBe(true);
  });

  it.each(pairs)('$code/$reason: its move can be checked, and SKILL.md and docs/errors.md carry it', ({ code, reason }) => {
    const info = reasonInfo(code, reason as never);
    const { all, any } = required(code, reason);
    expect(all.length + any.length, `${code}/${reason}: name a command in the move, or list its words in says`).toBeGreaterThan(0);
    expect(skill).toContain(`  - \`${reason}\` (`);
    expect(skill).toContain(info.move);
    expect(skillFile).toContain(info.move);
    expect(errorsDoc).toContain(info.move.replace(/\|/g, '\\|'));
  });

  it('every code with reasons says, at code level, a move true for any reason (SKILL: "any other reason")', () => {
    for (const code of REASONED_CODES) expect(skill).toContain(`  - any other reason: ${ERROR_TABLE[code].move}`);
  });

  it('every throw site of a reason prints its move in the message', () => {
    const problems = sites
      .filter((site) => site.code !== undefined && site.reason !== undefined && PASSED_ON[site.file] !== `${site.code}/${site.reason}`)
      .flatMap((site) => {
        const gaps = missing(site.message, site.code as ReasonedCode, site.reason as string);
        return gaps.length === 0 ? [] : [`${site.file}:${site.line} ${site.code}/${site.reason} lacks ${gaps.join(', ')}`];
      });
    expect(problems).toEqual([]);
  });

  it('a site whose code or reason is chosen at run time is one of the reviewed ones', () => {
    const dynamic = sites.filter((site) => site.code === undefined || site.reason === undefined).map((site) => site.file);
    expect([...new Set(dynamic)].sort()).toEqual(Object.keys(RUNTIME_SITES).sort());
  });

  it('at run time: stale_ref for every reason, and the host going away for every cause', async () => {
    for (const reason of reasonsOf('stale_ref')) {
      expect(missing(staleRefError('e5', reason, 3).message, 'stale_ref', reason), reason).toEqual([]);
    }
    const causes: HostExit[] = ['browser_closed', 'stopped', 'failed', 'replaced'];
    for (const why of causes) {
      const error = hostGoneError('click', why, 'host');
      expect(missing(error.message, 'native_host_disconnected', String(error.details.reason)), why).toEqual([]);
    }
    // The CLI's look at a browser that closed: the person's, and one `launch` started.
    const lost = reasonedError('native_host_disconnected', 'worker_stopped', 'the browser closed its side', { tool: 'click', phase: 'host' });
    for (const launched of [false, true]) {
      const look = { alive: () => false, successor: () => false, sleep: async () => undefined, now: () => 0, launchedBrowser: () => (launched ? 77 : null) };
      const host = descriptorFor({ home: '/h', pid: 9, browserPid: 77, profile: '/p' }, '/h/run/host-9.sock');
      const closed = await explainLostHost(lost, host, '/h', look);
      expect(closed.details.launched).toBe(launched);
      expect(closed.details.reason).toBe('browser_closed');
      expect(missing(closed.message, 'native_host_disconnected', 'browser_closed'), `launched ${launched}`).toEqual([]);
    }
  });
});
