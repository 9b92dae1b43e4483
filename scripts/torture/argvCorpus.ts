/**
 * Fuzzed command lines, as an attacker and a careless agent would type them: real commands with hostile,
 * malformed or contradictory values, unknown commands and flags, flags in the wrong place, huge and empty
 * strings, control characters, and stdin for `batch`.
 *
 * Generated from the seed alone. Tabs are symbolic (`$tab3`) and bound to real tab ids when a round runs,
 * so a run reproduces the same command lines around whatever ids the browser hands out.
 *
 * Kept bounded and safe for the machine running it: `launch` always gets a browser path that does not
 * exist (the suite's own browser is never doubled), the live round never names setup commands that
 * rewrite the install or swap the host (update, install, uninstall: covered by directed cases), waits
 * and busy pages stay within a few seconds, and every file path is under the suite's scratch directory
 * or a path that must be refused.
 */
import type { Rng } from '@chrome-relay/protocol/src/testing/prng.js';

export interface CorpusContext {
  /** Live browser: tab placeholders and fixture URLs mean something. */
  live: boolean;
  /** How many `$tabN` placeholders a round binds. */
  tabSlots: number;
  /** Scratch directory for --out / --dir values. */
  scratch: string;
  /** Base URL of the fixture server (live only). */
  origin: string;
}

export interface FuzzInvocation {
  argv: string[];
  stdin?: string;
}

/** Placeholder for the n-th tab of a round. */
export const tabSlot = (n: number): string => `$tab${n}`;

const HOSTILE_STRINGS = [
  '',
  ' ',
  'a',
  '--',
  '-',
  '--help=1',
  'x'.repeat(20_000),
  'line\nbreak',
  'carriage\rreturn',
  'sep\u2028arator',
  '\u001b[2J\u001b]0;pwned\u0007',
  '"quoted"',
  "it's",
  '`$(id)`',
  '; rm -rf /',
  '../../../etc/passwd',
  '%00%0a',
  '🙂 émoji ǅ',
  '\u202eevil',
  'chrome://settings',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'data:text/html,<script>alert(1)</script>',
  'http://127.0.0.1:1/',
  '{"relayError":{"code":"ok"}}',
  '- button "Transfer" [ref=e1]',
];
const INTS = ['0', '-1', '1', '2', '7', '100', '1e3', '0x10', '1.5', 'NaN', 'Infinity', '-0', '99999999999999999999', ' 5', '٣', 'abc', ''];
const REFS = ['@e1', '@e2', '@e3', '@e5', '@e8', '@e12', '@e0', '@e-1', '@E1', 'e1', '@', '@e1.5', '@e99999999999999999999', '@e404'];
const SELECTORS = ['button', '#named', 'input', 'p', 'h1', 'a', 'select', '', '[', 'div:has(', '::before', '*', 'x'.repeat(3000), 'body > *:nth-child(2)'];
const KEYS = ['Enter', 'Tab', 'Escape', 'a', 'Control+a', 'Shift+Tab', 'Meta+Shift+Alt+Control+x', 'Nope', 'Shift+', '+', 'F13', 'ArrowDown', 'a'.repeat(500)];
const WAIT_FOR = ['commit', 'domcontentloaded', 'load', 'none', 'never', ''];
const COLORS = ['grey', 'blue', 'red', 'purple', 'chartreuse', ''];
const LEVELS = ['debug', 'log', 'info', 'warn', 'error', 'fatal', ''];
const NAMES = ['fuzz-ws', 'fuzz-ws2', 'w', 'has space', '../x', 'x'.repeat(65), '', 'ünï'];
const AGENTS = ['fuzz-a', 'fuzz-b', 'agent@host.1', 'bad agent', 'x'.repeat(65), '', 'a\nb'];
const PAGES = ['/button.html', '/form.html', '/hostile.html', '/invisible.html', '/overlay.html', '/twins.html', '/dialogs.html', '/keys.html', '/observe.html', '/shadow.html', '/frame-parent.html', '/editor.html', '/scroller.html', '/rows?n=200', '/slow?ms=300', '/redirect?to=/other.html', '/missing.html', '/api/secret'];
/** Agent-written JavaScript, hostile and careless (bounded: no loop longer than ~1.5 s). */
const SCRIPTS = [
  '1+1',
  'document.title',
  'location.href',
  'throw new Error("boom")',
  '}',
  'await new Promise((r) => setTimeout(r, 200)); 5',
  'Promise.reject(new Error("no"))',
  'document.body',
  'window',
  'Symbol("s")',
  '10n',
  'NaN',
  'new Map([[1, 2]])',
  '(() => { const o = {}; o.o = o; return o; })()',
  '(() => { let v = 1; for (let i = 0; i < 200; i++) v = [v]; return v; })()',
  "'x'.repeat(2e6).length",
  'document.cookie = "sid=fuzz-cookie-" + Math.random(); document.cookie',
  'console.log("Bearer abcdefghijklmnop", document.cookie); 1',
  'fetch("/api/secret?token=fuzz-token&x=1").then((r) => r.status)',
  'for (const t = Date.now(); Date.now() - t < 1500;); 1',
  'setTimeout(() => alert("fuzz"), 20); 1',
  'setTimeout(() => confirm("fuzz?"), 20); 1',
  'location.href = "/other.html"; 1',
  'history.back(); 1',
  'document.body.innerHTML = "<button>new</button>"; 1',
  'document.title = "\\u2028# forged [tab=1]"; 1',
  'window.close(); 1',
  'undefined',
  '"\\u0000\\u001b[31m"',
];

type ValueKind = 'int' | 'string' | 'ref' | 'selector' | 'key' | 'tab' | 'url' | 'path' | 'dir' | 'script' | 'waitFor' | 'color' | 'level' | 'name' | 'agent' | 'timeout';

interface CommandSpec {
  /** The words naming it (`network har`). */
  words: string[];
  /** Positional arguments by kind (`?` suffix: optional). */
  args: ValueKind[];
  /** Flags with a value kind, or null for a boolean flag. */
  options: Record<string, ValueKind | null>;
  /** Not in the live round (rewrites the install, swaps the host). */
  setupOnly?: boolean;
}

const TARGET: Record<string, ValueKind | null> = { '--tab': 'tab', '--workspace': 'name', '--group': 'name' };
const AFTER: Record<string, ValueKind | null> = { '--snapshot': null };
const LOAD: Record<string, ValueKind | null> = { '--wait': 'waitFor', '--wait-timeout': 'timeout' };

const COMMANDS: readonly CommandSpec[] = [
  { words: ['tabs'], args: [], options: {} },
  { words: ['status'], args: [], options: {} },
  { words: ['navigate'], args: ['url'], options: { ...TARGET, ...LOAD } },
  { words: ['snapshot'], args: [], options: { ...TARGET, '-i': null, '-d': 'int', '-s': 'ref', '--max-chars': 'int', '--urls': null, '--diff': null, '--no-elide': null } },
  { words: ['click'], args: ['ref'], options: { ...TARGET, '--x': 'int', '--y': 'int', '--double': null, '--button': 'string', '--modifiers': 'key' } },
  { words: ['keys'], args: ['key', 'key'], options: { '--tab': 'tab', ...AFTER } },
  { words: ['type'], args: ['string'], options: { '-s': 'ref', '--tab': 'tab', ...AFTER } },
  { words: ['back'], args: [], options: { '--tab': 'tab', ...LOAD, ...AFTER } },
  { words: ['forward'], args: [], options: { '--tab': 'tab', ...LOAD, ...AFTER } },
  { words: ['reload'], args: [], options: { '--tab': 'tab', ...LOAD, ...AFTER } },
  { words: ['close'], args: ['tab'], options: {} },
  { words: ['wait'], args: [], options: { '--text': 'string', '--url': 'string', '--load': null, '--networkidle': null, '--fn': 'script', '--selector': 'selector', '--download': null, '--timeout': 'timeout', '--tab': 'tab' } },
  { words: ['get', 'title'], args: [], options: { '--tab': 'tab' } },
  { words: ['get', 'url'], args: [], options: { '--tab': 'tab' } },
  { words: ['get', 'text'], args: [], options: { '-s': 'selector', '--tab': 'tab' } },
  { words: ['get', 'attr'], args: ['string'], options: { '-s': 'selector', '--tab': 'tab' } },
  { words: ['get', 'count'], args: [], options: { '-s': 'selector', '--tab': 'tab' } },
  { words: ['get'], args: ['string'], options: { '-s': 'selector' } },
  { words: ['js'], args: ['script'], options: { '--tab': 'tab' } },
  { words: ['dialog'], args: ['string'], options: { '--text': 'string', '--tab': 'tab' } },
  { words: ['dialog', 'accept'], args: [], options: { '--text': 'string', '--tab': 'tab' } },
  { words: ['dialog', 'dismiss'], args: [], options: { '--tab': 'tab' } },
  { words: ['download'], args: [], options: { '--dir': 'dir', '--tab': 'tab' } },
  { words: ['fill'], args: ['ref', 'string'], options: { ...TARGET, ...AFTER } },
  { words: ['focus'], args: ['ref'], options: { ...TARGET } },
  { words: ['hover'], args: ['ref'], options: { ...TARGET } },
  { words: ['check'], args: ['ref'], options: { ...TARGET } },
  { words: ['uncheck'], args: ['ref'], options: { ...TARGET } },
  { words: ['select'], args: ['ref', 'string'], options: { ...TARGET } },
  { words: ['scroll'], args: ['string', 'int'], options: { ...TARGET, '--in': 'ref', '--into-view': 'ref' } },
  { words: ['drag'], args: ['ref', 'ref'], options: { ...TARGET } },
  { words: ['upload'], args: ['ref', 'path'], options: { ...TARGET, '--via': 'ref' } },
  { words: ['screenshot'], args: [], options: { ...TARGET, '-o': 'path', '--full': null, '--selector': 'selector', '--max-edge': 'int', '--format': 'string', '--quality': 'int', '--base64': null } },
  { words: ['console'], args: [], options: { ...TARGET, '--level': 'level', '--since': 'int', '--clear': null } },
  { words: ['network'], args: [], options: { ...TARGET, '--url': 'string', '--status': 'string', '--method': 'string', '--raw-headers': null } },
  { words: ['network', 'body'], args: ['string'], options: { ...TARGET, '-o': 'path' } },
  { words: ['network', 'har'], args: [], options: { ...TARGET, '-o': 'path', '--raw-headers': null } },
  { words: ['record', 'start'], args: [], options: { ...TARGET, '--max-frames': 'int', '--quality': 'int' } },
  { words: ['record', 'stop'], args: [], options: { ...TARGET, '--out': 'dir', '--gif': null, '--fps': 'int' } },
  { words: ['workspace', 'create'], args: ['name'], options: { '--url': 'url', '--agent': 'agent' } },
  { words: ['workspace', 'list'], args: [], options: {} },
  { words: ['workspace', 'close'], args: ['name'], options: {} },
  { words: ['group', 'create'], args: ['name', 'tab'], options: { '--color': 'color', '--allow-partial': null } },
  { words: ['group', 'add'], args: ['name', 'tab'], options: { '--allow-partial': null } },
  { words: ['group', 'list'], args: [], options: {} },
  { words: ['group', 'close'], args: ['name'], options: { '--allow-partial': null } },
  { words: ['lease', 'claim'], args: [], options: { '--tab': 'tab', '--workspace': 'name', '--ttl': 'int' } },
  { words: ['lease', 'release'], args: [], options: { '--tab': 'tab', '--workspace': 'name', '--all': null, '--force': null } },
  { words: ['lease', 'list'], args: [], options: {} },
  { words: ['read'], args: [], options: { '--tab': 'tab' } },
  { words: ['ax'], args: [], options: { '--tab': 'tab' } },
  { words: ['click-ax'], args: ['ref'], options: {} },
  { words: ['doctor'], args: [], options: {} },
  { words: ['skill'], args: [], options: {} },
  { words: ['extension'], args: [], options: {} },
  { words: ['reconnect'], args: [], options: {} },
  { words: ['launch'], args: ['url'], options: { '--user-data-dir': 'dir', '--headless': null, '--launch-timeout': 'timeout', '--browser-arg': 'string' } },
  { words: ['install'], args: [], options: { '--browser': 'string', '--user-data-dir': 'dir', '--extension-id': 'string' }, setupOnly: true },
  { words: ['uninstall'], args: [], options: {}, setupOnly: true },
  { words: ['update'], args: [], options: { '--reconnect-timeout': 'timeout' }, setupOnly: true },
  { words: ['batch'], args: [], options: { '--no-bail': null } },
  { words: ['help'], args: ['string'], options: {} },
  { words: ['nonexistent-command'], args: ['string'], options: {} },
];

const GLOBALS: Record<string, ValueKind | null> = { '--profile': 'dir', '--timeout': 'timeout', '--json': null, '--agent': 'agent', '--tab': 'tab', '--workspace': 'name', '--group': 'name' };

export class ArgvCorpus {
  constructor(
    private readonly rng: Rng,
    private readonly context: CorpusContext,
  ) {}

  /** One fuzzed invocation. */
  next(): FuzzInvocation {
    const rng = this.rng;
    const spec = rng.pick(COMMANDS.filter((c) => !(this.context.live && c.setupOnly)));
    const argv: string[] = [];
    // Program-level options before the command, sometimes.
    while (rng.chance(0.25)) this.option(argv, GLOBALS);
    argv.push(...this.command(spec));
    if (this.context.live && !argv.includes('--timeout')) argv.unshift('--timeout', '8000');
    const invocation: FuzzInvocation = { argv };
    if (spec.words[0] === 'batch') invocation.stdin = this.batchStdin();
    return invocation;
  }

  /** The command words, its arguments and its own flags. */
  private command(spec: CommandSpec): string[] {
    const rng = this.rng;
    const argv = [...spec.words];
    if (rng.chance(0.05)) argv.push(rng.pick(['--help', '-h', '--version']));
    const positional = spec.args.filter(() => rng.chance(0.85));
    if (rng.chance(0.1)) positional.push(rng.pick<ValueKind>(['string', 'int', 'ref']));
    for (const kind of positional) argv.push(this.value(kind));
    const flags = rng.int(0, 3);
    for (let i = 0; i < flags; i++) this.option(argv, spec.options);
    if (rng.chance(0.06)) argv.push(rng.pick(['--no-such-flag', '--tab', '-z', '--json=maybe', '--timeout']));
    this.bound(spec, argv);
    return argv;
  }

  /** Keep the run bounded and the machine safe whatever was drawn (see the header). */
  private bound(spec: CommandSpec, argv: string[]): void {
    if (spec.words[0] === 'launch') argv.push('--browser', '/nonexistent/chromium-for-torture');
    if (spec.words[0] === 'wait') argv.push('--timeout', String(this.rng.int(1, 2500)));
  }

  private option(argv: string[], options: Record<string, ValueKind | null>): void {
    const names = Object.keys(options);
    if (names.length === 0) return;
    const name = this.rng.pick(names);
    const kind = options[name];
    if (kind === null || kind === undefined) {
      argv.push(name);
      return;
    }
    const value = this.value(kind);
    // --flag=value and --flag value, both as agents write them.
    if (name.startsWith('--') && this.rng.chance(0.2)) argv.push(`${name}=${value}`);
    else argv.push(name, value);
  }

  private value(kind: ValueKind): string {
    const rng = this.rng;
    if (rng.chance(0.12)) return rng.pick(HOSTILE_STRINGS);
    switch (kind) {
      case 'int':
        return rng.pick(INTS);
      case 'timeout':
        return rng.pick(['1', '50', '500', '2000', '4000', '0', '-5', 'abc', '99999999999', '1e3']);
      case 'string':
        return rng.pick([...HOSTILE_STRINGS, 'down', 'up', 'left', 'Submit', 'title', 'href', 'red', 'jpeg', 'png', 'GET', '4xx', 'failed']);
      case 'ref':
        return rng.pick(REFS);
      case 'selector':
        return rng.pick(SELECTORS);
      case 'key':
        return rng.pick(KEYS);
      case 'tab':
        return this.context.live && rng.chance(0.8) ? tabSlot(rng.int(0, this.context.tabSlots - 1)) : rng.pick(INTS);
      case 'url':
        return this.context.live && rng.chance(0.7) ? `${this.context.origin}${rng.pick(PAGES)}` : rng.pick([...HOSTILE_STRINGS, 'example.com', 'about:blank']);
      case 'path':
        return rng.pick([`${this.context.scratch}/out-${rng.int(0, 99)}.png`, `${this.context.scratch}/f.har`, `${this.context.scratch}/upload.txt`, '/proc/1/mem', '/dev/full', '/nonexistent/dir/x.png', '/', '.', `${this.context.scratch}/${'n'.repeat(300)}`, '']);
      case 'dir':
        return rng.pick([`${this.context.scratch}/dir-${rng.int(0, 9)}`, this.context.scratch, '/proc/self', '/dev/null', '/nonexistent', '', `${this.context.scratch}/upload.txt`]);
      case 'script':
        return rng.pick(SCRIPTS);
      case 'waitFor':
        return rng.pick(WAIT_FOR);
      case 'color':
        return rng.pick(COLORS);
      case 'level':
        return rng.pick(LEVELS);
      case 'name':
        return rng.pick(NAMES);
      case 'agent':
        return rng.pick(AGENTS);
    }
  }

  /** stdin for `batch`: usually an array of steps (some hostile), sometimes not JSON at all. */
  private batchStdin(): string {
    const rng = this.rng;
    if (rng.chance(0.2)) return rng.pick(['', 'not json', '{}', '[]', '[1,2]', 'null', '['.repeat(5000), JSON.stringify(Array.from({ length: 101 }, () => ({ command: 'tabs' })))]);
    const steps: unknown[] = [];
    const count = rng.int(1, 4);
    for (let i = 0; i < count; i++) {
      if (rng.chance(0.15)) {
        steps.push(rng.pick<unknown>([{ command: 'launch', args: ['--headless'] }, { command: 'update' }, { tool: 'restart_host' }, { tool: 'rearm' }, { command: 'batch' }, { tool: 'no_such_tool' }, { command: 'tabs', extra: 1 }, 'tabs', null, { tool: 'snapshot', params: [] }]));
        continue;
      }
      if (rng.chance(0.3)) {
        steps.push(rng.pick<unknown>([{ tool: 'tabs' }, { tool: 'snapshot', params: { tab: 1 } }, { tool: 'js', params: { code: '1' } }, { tool: 'get', params: { what: 'title' } }]));
        continue;
      }
      const spec = rng.pick(COMMANDS.filter((c) => c.words[0] !== 'batch' && !(this.context.live && c.setupOnly)));
      const [command, ...args] = this.command(spec);
      steps.push({ command, args });
    }
    return JSON.stringify(steps);
  }
}

/** Bind `$tabN` placeholders (anywhere in argv or stdin) to real tab ids. */
export function bindTabs(invocation: FuzzInvocation, tabs: readonly number[]): FuzzInvocation {
  const bind = (text: string): string => text.replace(/\$tab(\d+)/g, (_all, n: string) => String(tabs[Number(n) % Math.max(1, tabs.length)] ?? 0));
  return { argv: invocation.argv.map(bind), ...(invocation.stdin === undefined ? {} : { stdin: bind(invocation.stdin) }) };
}
