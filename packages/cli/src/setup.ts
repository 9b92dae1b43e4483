/**
 * `chrome-relay setup` (and `install` with no flags on a terminal): guided setup for a person's own
 * browser, in four steps —
 *   1. register the native host for the detected browsers (install.ts);
 *   2. print the unpacked extension's folder and the three clicks that load it;
 *   3. offer to open those steps in one of those browsers (a local page with copy buttons: Chrome
 *      opens no chrome:// page handed to it by another program, see setupPage.ts);
 *   4. wait, with a live progress line, until the extension connects; then the doctor checklist, and
 *      the last step: pin the toolbar button (Chrome hides a new extension's button behind its
 *      Extensions menu, and that button is the person's view of agents and their Pause).
 * Without a terminal nothing is asked and nothing waits: the result is `install`'s (plus the folder
 * and the steps), so scripts and agents can run it. `--wait` adds step 4 there too.
 *
 * Everything that touches the machine comes in through SetupDeps, so the flow is unit-tested with
 * fakes (setup.test.ts): prompts, the clock, descriptors, the browser that gets opened.
 */
import { reasonedError, type HostDescriptor } from '@chrome-relay/protocol';
import type { BrowserTarget } from './browsers.js';
import { profileLabel, type DoctorReport } from './doctor.js';
import type { InstallResult, InstallTarget } from './install.js';

export const EXTENSIONS_PAGE = 'chrome://extensions';
export const DEFAULT_CONNECT_TIMEOUT_MS = 10 * 60 * 1000;
const TICK_MS = 250;
/** Without a terminal, a progress line every this often (a log, not an animation). */
const PLAIN_PROGRESS_EVERY_MS = 5000;

/** Where the toolbar button is once loaded, and how to keep it in sight. */
const PIN_STEP =
  'Pin the toolbar button: click the puzzle-piece "Extensions" button right of the address bar, then the pin beside chrome-relay. That button shows what agents do, lets you share a tab with them, and has Pause.';

/**
 * The folder sits in chrome-relay's home, which a folder picker does not list (a dot folder on Linux and macOS,
 * AppData on Windows): the step says how to reach it anyway, by pasting its path.
 */
const PICKER_HINT = "it is in a hidden folder, which the folder picker does not list: press Ctrl+L there (⌘⇧G on macOS) and paste the path";

function loadSteps(extensionDir: string): string[] {
  return [
    `Open ${EXTENSIONS_PAGE} in the browser.`,
    'Turn on "Developer mode" (the switch at the top right).',
    `Click "Load unpacked" and choose the folder ${extensionDir} (${PICKER_HINT}).`,
    PIN_STEP,
  ];
}

export interface SetupIO {
  /** stdin and stdout are a terminal: prompts and an animated progress line are possible. */
  readonly interactive: boolean;
  /** A line (or lines) for the person. */
  say(text: string): void;
  /** Replace the progress line (a terminal) or log it (otherwise). */
  progress(line: string): void;
  /** End the progress line. */
  progressDone(): void;
  ask(question: string): Promise<string>;
}

export interface SetupDeps {
  io: SetupIO;
  targets: readonly InstallTarget[];
  /** Every browser of this platform (labels, and which have a manifest directory). */
  browsers: readonly BrowserTarget[];
  install(): InstallResult;
  extensionDir: string;
  /** A connected browser: a live host whose extension greeted it. */
  connected(): HostDescriptor | null;
  /** Browsers whose executable was found, to open the steps in. */
  openable(): { browser: string; label: string }[];
  /** Open the page with the steps (setupPage.ts) in this browser. */
  openSteps(browser: string): Promise<void>;
  /** Put `text` on the clipboard; the program that did it, or null when none is at hand. */
  copy(text: string): Promise<string | null>;
  doctor(): Promise<DoctorReport>;
  renderDoctor(report: DoctorReport): string;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Non-interactive: wait for the extension too. */
  wait: boolean;
  timeoutMs: number;
}

export interface SetupResult extends InstallResult {
  extensionPath: string;
  steps: string[];
  /** The browser that connected (when setup waited). */
  connected?: { profile: string | null; browserPid: number | null; extension: string | null };
  doctor?: DoctorReport;
}

/** Wait until `find` returns a value, telling `tick` the seconds waited; timeout not_connected at the deadline. */
export async function waitForConnection<T>(
  find: () => T | null,
  clock: { now(): number; sleep(ms: number): Promise<void> },
  timeoutMs: number,
  tick: (waitedMs: number) => void,
): Promise<T> {
  const started = clock.now();
  for (;;) {
    const found = find();
    if (found !== null) return found;
    const waited = clock.now() - started;
    if (waited >= timeoutMs) {
      throw reasonedError(
        'timeout',
        'not_connected',
        `The extension did not connect within ${Math.round(timeoutMs / 1000)} s. Check that chrome-relay shows as enabled in ${EXTENSIONS_PAGE} (and any error it shows there), then run \`chrome-relay doctor\`.`,
        { tool: 'setup', phase: 'connect', details: { waitedMs: waited } },
      );
    }
    tick(waited);
    await clock.sleep(TICK_MS);
  }
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

function progressLine(waitedMs: number, interactive: boolean): string {
  const seconds = Math.floor(waitedMs / 1000);
  const spinner = interactive ? `${SPINNER[Math.floor(waitedMs / 100) % SPINNER.length] ?? ''} ` : '';
  return `${spinner}Waiting for the extension to connect… ${seconds} s${interactive ? ' (Ctrl-C to stop; `chrome-relay doctor` checks any time)' : ''}`;
}

function describeConnected(found: HostDescriptor): SetupResult['connected'] {
  return { profile: found.profile, browserPid: found.browserPid, extension: found.extension?.version ?? null };
}

/** Ask which browser gets the steps; '' (Enter) = none. Returns the browser name or null. */
async function chooseBrowser(deps: SetupDeps, candidates: { browser: string; label: string }[]): Promise<string | null> {
  if (candidates.length === 0) {
    deps.io.say(`    (No browser command found to open the steps in: open ${EXTENSIONS_PAGE} yourself.)`);
    return null;
  }
  const menu = candidates.map((c, i) => `[${i + 1}] ${c.label}`).join('  ');
  for (;;) {
    const answer = (await deps.io.ask(`    Open these steps in your browser? ${menu}  [Enter] no: `)).trim();
    if (answer === '') return null;
    const index = Number(answer);
    const picked = Number.isInteger(index) ? candidates[index - 1] : candidates.find((c) => c.browser === answer);
    if (picked) return picked.browser;
    deps.io.say(`  Type a number from 1 to ${candidates.length}, or press Enter.`);
  }
}

async function waitAndCheck(deps: SetupDeps, result: SetupResult): Promise<SetupResult> {
  const found = await waitForConnection(() => deps.connected(), deps, deps.timeoutMs, (waited) => {
    if (deps.io.interactive || waited % PLAIN_PROGRESS_EVERY_MS < TICK_MS) deps.io.progress(progressLine(waited, deps.io.interactive));
  });
  deps.io.progressDone();
  const connected = describeConnected(found);
  deps.io.say(`Connected: ${profileLabel(found.profile)} (browser pid ${found.browserPid ?? '?'}, extension ${connected?.extension ?? '?'}).`);
  const report = await deps.doctor();
  return { ...result, ...(connected ? { connected } : {}), doctor: report };
}

export async function runSetup(deps: SetupDeps): Promise<SetupResult> {
  const { io } = deps;
  const installed = deps.install();
  const result: SetupResult = { ...installed, extensionPath: deps.extensionDir, steps: loadSteps(deps.extensionDir) };
  if (!io.interactive) return deps.wait ? waitAndCheck(deps, result) : result;

  const labelOf = (name: string): string => deps.browsers.find((b) => b.browser === name)?.label ?? name;
  io.say('1/4 Registered the chrome-relay native host (it lets the CLI reach the extension; nothing listens on the network):');
  // Where the browser finds it: the manifest, or on Windows the registry key that names the manifest.
  for (const written of installed.written) io.say(`    ${labelOf(written.browser)}: ${written.registryKey === undefined ? '' : `${written.registryKey} → `}${written.manifest}`);
  io.say('');
  io.say('2/4 Load the extension, once per browser profile:');
  result.steps.forEach((step, i) => io.say(`    ${i + 1}. ${step}`));
  const copied = await deps.copy(deps.extensionDir).catch(() => null);
  io.say(copied === null ? `    (Copy the folder's path from step 3 to paste it in the picker.)` : `    The folder's path is on your clipboard (${copied}), ready to paste in the picker.`);
  io.say('    It adds a toolbar button: it shows which tabs agents control and every command they run, and');
  io.say('    Pause stops them all at once. Agents only act in tabs they opened or that you give them.');
  io.say('');
  // The browsers just registered; for a --user-data-dir install (no browser named), every one found.
  const registered = new Set(installed.written.map((w) => w.browser));
  const openable = deps.openable();
  const named = openable.filter((c) => registered.has(c.browser));
  const candidates = named.length > 0 ? named : openable;
  io.say(`3/4 Chrome lets no other program open ${EXTENSIONS_PAGE}; setup can open a page with these steps and copy buttons.`);
  const chosen = await chooseBrowser(deps, candidates);
  if (chosen !== null) {
    try {
      await deps.openSteps(chosen);
      io.say(`    Opened the steps in ${labelOf(chosen)}: paste ${EXTENSIONS_PAGE} into its address bar from there.`);
    } catch (error) {
      io.say(`    Could not start ${labelOf(chosen)} (${error instanceof Error ? error.message : String(error)}): open ${EXTENSIONS_PAGE} yourself.`);
    }
  }
  io.say('');
  io.say('4/4 Waiting for the extension');
  const done = await waitAndCheck(deps, result);
  io.say('');
  if (done.doctor) io.say(deps.renderDoctor(done.doctor));
  io.say('');
  io.say(`Last step, if not done yet: ${PIN_STEP}`);
  return done;
}
