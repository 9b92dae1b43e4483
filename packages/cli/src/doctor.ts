/**
 * `chrome-relay doctor`: a checklist a human (or agent) can act on. Every failing line names its fix.
 *
 * Status levels: ok; fail (the setup cannot work as installed); warn (works, but something optional is
 * off — e.g. ffmpeg missing, which only screen recording needs, or a detected browser chrome-relay was
 * deliberately not installed for); skip (nothing to check). Healthy = no fail line; exit 0 only then.
 *
 * Health is proven, not read from a cache: the host's "extension connected" only means the extension once
 * greeted it, so doctor also pings the extension (answered by its service worker, not the host) and, when
 * chrome-relay has a tab open, evaluates `1` in it. A worker that stopped answering is a failure even though
 * its greeting is still cached — otherwise every call would burn its whole --timeout while doctor said healthy.
 *
 * Manifest rules: a manifest the install record lists must exist and be valid (fail). A detected browser
 * without a manifest fails when nothing was ever installed, and only warns once something was (the user
 * chose which browsers to register; `launch` registers its own profile).
 */
import { accessSync, constants, existsSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { currentUser, homeProblem, needsProof, sweepStaleHosts } from '@chrome-relay/host-files';
import type { Platform, Registry } from '@chrome-relay/host-files';
import {
  PROTOCOL_VERSION,
  RelayError,
  TOOLS,
  VERSION,
  type ErrorCode,
  type HostDescriptor,
  type RelayErrorData,
  type ToolResult,
} from '@chrome-relay/protocol';
import { browserExecutable, browserOfExecutable, browserTargets, platformOfEnv, type BrowserEnv } from './browsers.js';
import { listDescriptors } from './discovery.js';
import { describeHomeProblem } from './homeTrust.js';
import { allowedExtensionIds, installTargetOf, profileTarget } from './install.js';
import { readRecord } from './installRecord.js';
import { launchedStates } from './launched.js';
import { inspectManifest } from './manifestCheck.js';
import { defaultProfileDir, installedHostDir, runDir } from './paths.js';
import { callSocket } from './socketCall.js';
import { systemRegistry } from './systemRegistry.js';
import { compareVersions, skewNotices } from './versionSkew.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
  /** The closed code a failure maps to, for the relayError block. */
  code?: ErrorCode;
  /** Its details.reason, for the codes that have them (reasons.ts). */
  reason?: string;
}

export interface DoctorReport {
  healthy: boolean;
  cli: { version: string; protocolVersion: number };
  home: string;
  checks: Check[];
}

export interface DoctorOptions {
  home: string;
  /** Only check the host of this profile (user-data-dir). */
  profile?: string | undefined;
  browserEnv: BrowserEnv;
  /** $PATH, to find ffmpeg. */
  pathEnv: string | undefined;
  env?: NodeJS.ProcessEnv;
  cliVersion?: string;
  /** Deadline of each host status call. */
  hostTimeoutMs?: number;
  /** Deadline of each round trip to an extension (and its tab). */
  pingTimeoutMs?: number;
  /** The executable of a pid (Linux: /proc/<pid>/exe), to name the browser a host serves. */
  executableOf?: (pid: number) => string | null;
  /** Windows: where browsers find hosts (default: this machine's registry). */
  registry?: Registry;
  /** Whether a browser's executable exists at this path (default: an executable file there). */
  programExists?: (path: string) => boolean;
}

/**
 * How doctor and setup name a host's profile. A browser started without --user-data-dir (a person's own
 * Chrome) runs its own default profile, which `status` reports as `"profile": null`: say both.
 */
export function profileLabel(profile: string | null, explained = false): string {
  if (profile !== null) return `profile ${profile}`;
  // Said in full once (the line naming the browser); every other line only names it.
  return explained ? "the browser's own profile (started without --user-data-dir; `status` shows profile null)" : "the browser's own profile";
}

function linuxExecutable(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

/** An executable regular file (setup and doctor look browsers and the host launcher up with it). */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function checkHostFiles(home: string, platform: Platform, env: NodeJS.ProcessEnv): Check {
  const launcher = join(installedHostDir(home), platform.launcher.fileName);
  const name = 'installed host';
  if (!existsSync(launcher)) {
    return { name, status: 'fail', detail: `no launcher at ${launcher}`, fix: 'chrome-relay install', code: 'extension_not_connected', reason: 'host_not_installed' };
  }
  let targets: ReturnType<Platform['launcher']['targets']> = null;
  try {
    targets = isExecutable(launcher) ? platform.launcher.targets(readFileSync(launcher, 'utf8'), launcher, env) : null;
  } catch {
    targets = null;
  }
  if (!targets) {
    return { name, status: 'fail', detail: `${launcher} is not an executable chrome-relay launcher`, fix: 'chrome-relay update', code: 'extension_not_connected', reason: 'host_not_installed' };
  }
  // A node upgraded or removed since install (nvm, brew) leaves a launcher Chrome cannot start.
  if (!isExecutable(targets.node)) {
    return { name, status: 'fail', detail: `${launcher} runs ${targets.node}, which no longer exists`, fix: 'chrome-relay update (rewrites the launcher for the current node)', code: 'extension_not_connected', reason: 'host_not_installed' };
  }
  if (!existsSync(targets.hostFile)) {
    return { name, status: 'fail', detail: `${launcher} runs ${targets.hostFile}, which is missing`, fix: 'chrome-relay update', code: 'extension_not_connected', reason: 'host_not_installed' };
  }
  return { name, status: 'ok', detail: `${launcher} → ${targets.node} ${targets.hostFile}` };
}

interface ManifestTarget {
  label: string;
  file: string;
  /** Windows: the registry key the browser reads to find `file`. */
  registryKey: string | null;
  fix: string;
  /** Listed in the install record: it must be there. */
  recorded: boolean;
}

/**
 * Follow a manifest the way the browser finds it: on Windows through its registry key (whose default value
 * names the manifest), elsewhere at its path. A Check when that already fails, else the file to inspect.
 */
function followRegistry(t: ManifestTarget, registry: () => Registry, platform: Platform): { file: string; via: string } | Check | 'unregistered' {
  if (t.registryKey === null) return { file: t.file, via: '' };
  const name = `host manifest (${t.label})`;
  let named: string | null;
  try {
    named = registry().readDefault(t.registryKey);
  } catch (error) {
    return { name, status: 'fail', detail: `cannot read ${t.registryKey}: ${(error as Error).message}`, fix: t.fix, code: 'extension_not_connected', reason: 'host_not_installed' };
  }
  if (named === null) return 'unregistered';
  if (!platform.samePath(named, t.file)) {
    return { name, status: 'fail', detail: `${t.registryKey} names ${named}, not this home's manifest ${t.file}: the browser starts another chrome-relay's host`, fix: t.fix, code: 'extension_not_connected', reason: 'host_not_installed' };
  }
  return { file: named, via: `${t.registryKey} → ` };
}

function manifestChecks(options: DoctorOptions, ourIds: readonly string[], platform: Platform): Check[] {
  const read = readRecord(options.home);
  const record = read.kind === 'ok' ? read.record : null;
  const checks: Check[] = [];
  if (read.kind === 'corrupt') {
    checks.push({ name: 'install record', status: 'fail', detail: `${join(options.home, 'installed.json')} is unreadable (${read.problem})`, fix: 'delete it and run `chrome-relay install`', code: 'invalid_arguments' });
  }
  let registry = options.registry;
  const registryOnce = (): Registry => (registry ??= systemRegistry());
  const targets = new Map<string, ManifestTarget>();
  const fixFor = (browser: string, file: string): string => (browser === 'profile' ? `chrome-relay install --user-data-dir ${dirname(dirname(file))}` : `chrome-relay install --browser ${browser}`);
  for (const m of record?.manifests ?? []) {
    const label = m.browser === 'profile' ? `profile ${dirname(dirname(m.path))}` : m.browser;
    targets.set(m.path, { label, file: m.path, registryKey: m.registryKey ?? null, fix: fixFor(m.browser, m.path), recorded: true });
  }
  const all = browserTargets(options.browserEnv).map((b) => ({ ...b, target: installTargetOf(b, options.home) }));
  for (const { browser, target } of all.filter((b) => b.detected)) {
    if (!targets.has(target.manifest)) targets.set(target.manifest, { label: browser, file: target.manifest, registryKey: target.registryKey, fix: fixFor(browser, target.manifest), recorded: false });
  }
  // A profile's own manifest directory, where browsers read one.
  for (const dir of platform.profileManifests ? [defaultProfileDir(options.home), options.profile] : []) {
    if (!dir || !existsSync(dir)) continue;
    const file = profileTarget(dir).manifest;
    if (!targets.has(file)) targets.set(file, { label: `profile ${dir}`, file, registryKey: null, fix: fixFor('profile', file), recorded: false });
  }

  for (const t of targets.values()) {
    const name = `host manifest (${t.label})`;
    const found = followRegistry(t, registryOnce, platform);
    if (found !== 'unregistered' && 'status' in found) {
      checks.push(found);
      continue;
    }
    const state = found === 'unregistered' ? ({ kind: 'missing' } as const) : inspectManifest(found.file, ourIds, platform);
    const where = t.registryKey === null ? t.file : `${t.registryKey} (naming ${t.file})`;
    if (state.kind === 'ok') {
      checks.push({ name, status: 'ok', detail: `${found === 'unregistered' ? '' : found.via}${t.file} → ${state.launcher}` });
    } else if (state.kind === 'broken') {
      checks.push({ name, status: 'fail', detail: `${t.file}: ${state.problem}`, fix: t.fix, code: 'extension_not_connected', reason: 'host_not_installed' });
    } else if (t.recorded || record === null) {
      checks.push({ name, status: 'fail', detail: `missing: ${where}`, fix: t.fix, code: 'extension_not_connected', reason: 'host_not_installed' });
    } else {
      checks.push({ name, status: 'warn', detail: `not registered (${where} does not exist); chrome-relay cannot reach ${t.label}`, fix: `${t.fix} (only if you want chrome-relay in ${t.label})` });
    }
  }
  // A browser counts as detected once it has run for this user (its profile directory exists); one that is
  // installed but was never run is named as such, so "not detected" never hides a browser that is right there.
  const absent = all.filter((b) => !b.detected && !targets.has(b.target.manifest));
  const programExists = options.programExists ?? isExecutable;
  const installed = absent.flatMap((b) => {
    const program = browserExecutable(b.browser, options.browserEnv, programExists);
    return program === null ? [] : [`${b.browser} (${program})`];
  });
  const missing = absent.filter((b) => browserExecutable(b.browser, options.browserEnv, programExists) === null).map((b) => b.browser);
  if (installed.length > 0) {
    checks.push({
      name: 'browsers never run',
      status: 'skip',
      detail: `installed, but no profile for this user yet: ${installed.join(', ')}`,
      fix: 'start it once and run `chrome-relay install` again, or `chrome-relay install --browser NAME` now (`chrome-relay launch` needs neither)',
    });
  }
  if (missing.length > 0) checks.push({ name: 'other browsers', status: 'skip', detail: `not installed: ${missing.join(', ')}` });
  return checks;
}

function mode(path: string): number | null {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return null;
  }
}

const octal = (m: number | null): string => (m === null ? 'missing' : `0${m.toString(8)}`);

function browserLabel(descriptor: HostDescriptor, userAgent: string | null, executableOf: (pid: number) => string | null): string {
  const exe = descriptor.browserPid !== null ? executableOf(descriptor.browserPid) : null;
  const name = (exe && browserOfExecutable(exe)) ?? 'browser';
  const version = userAgent ? /(?:Headless)?Chrome\/([\d.]+)/.exec(userAgent)?.[1] : undefined;
  return `${name}${version ? ` ${version}` : ''}${descriptor.browserPid !== null ? ` (pid ${descriptor.browserPid})` : ''}`;
}

export function versionCheck(name: string, cli: string, host: { version: string; protocolVersion: number }, extension: { version: string; protocolVersion: number }): Check {
  const detail = `cli ${cli}, host ${host.version}, extension ${extension.version} (protocol ${PROTOCOL_VERSION}/${host.protocolVersion}/${extension.protocolVersion})`;
  if (compareVersions(host.version, cli) !== 0) {
    const fix = compareVersions(host.version, cli) < 0 ? 'chrome-relay update (installs this CLI\'s host and reconnects)' : 'update the CLI (npm i -g chrome-relay@latest), then chrome-relay update';
    return { name, status: 'fail', detail: `${detail}: the running host is ${compareVersions(host.version, cli) < 0 ? 'older' : 'newer'} than the CLI`, fix, code: 'unsupported_tool' };
  }
  const notice = skewNotices(extension.version, cli)[0];
  if (notice) return { name, status: 'fail', detail: `${detail}: ${notice.notice}`, fix: notice.message, code: 'unsupported_tool' };
  if (host.protocolVersion !== PROTOCOL_VERSION || extension.protocolVersion !== PROTOCOL_VERSION) {
    return { name, status: 'fail', detail: `${detail}: protocol versions differ`, fix: 'install matching releases: chrome-relay update, then reload the extension', code: 'unsupported_tool' };
  }
  return { name, status: 'ok', detail };
}

async function hostChecks(options: DoctorOptions, descriptor: HostDescriptor, platform: Platform): Promise<Check[]> {
  const executableOf = options.executableOf ?? linuxExecutable;
  const where = profileLabel(descriptor.profile);
  const suffix = `(${where}, host pid ${descriptor.pid})`;
  const pipe = needsProof(descriptor.socket);
  const secret = platform.secretFile({ env: options.env ?? process.env, userHome: options.browserEnv.userHome });
  // A Unix socket is guarded by its modes; a named pipe by the secret (checked below, once it answers).
  const socketMode = pipe ? 0o600 : mode(descriptor.socket);
  const dirMode = pipe ? 0o700 : mode(dirname(descriptor.socket));
  if (socketMode !== 0o600 || dirMode !== 0o700) {
    return [{
      name: `host reachable ${suffix}`,
      status: 'fail',
      detail: `socket ${descriptor.socket} is ${octal(socketMode)} in a ${octal(dirMode)} directory (want 0600 in 0700): other users could drive this browser`,
      fix: `chmod 700 ${dirname(descriptor.socket)} and restart the browser so the host recreates its socket`,
      code: 'native_host_disconnected',
      reason: 'host_unsafe',
    }];
  }
  let status: ToolResult<'status'>;
  try {
    const response = await callSocket(descriptor.socket, 'status', {}, options.hostTimeoutMs ?? 3000);
    if (!response.ok) throw RelayError.fromData(response.error);
    status = TOOLS.status.result.parse(response.result);
  } catch (error) {
    const relay = RelayError.from(error, 'status', 'connect');
    const reason = typeof relay.details.reason === 'string' ? { reason: relay.details.reason } : {};
    const fix =
      relay.details.reason === 'client_not_authorized'
        ? `the host refused this CLI's proof of ${secret ?? "this user's secret"}: run chrome-relay as the user whose browser this is; if you are, the secret changed since the browser started — restart the browser`
        : 'restart the browser (it starts a new host); if it persists run `chrome-relay update`';
    return [{ name: `host reachable ${suffix}`, status: 'fail', detail: `${relay.code}: ${relay.message}`, fix, code: relay.code, ...reason }];
  }
  // A socket outside the run dir: the home's path was too long for one (the host's log says where and why).
  const moved = !pipe && dirname(status.host.socket) !== runDir(options.home) ? `, outside ${runDir(options.home)} because a socket path there would be too long` : '';
  const endpoint = pipe ? `named pipe ${status.host.socket}` : `socket ${status.host.socket} (0600, dir 0700${moved})`;
  const checks: Check[] = [{ name: `host reachable ${suffix}`, status: 'ok', detail: `${endpoint}, host ${status.host.version}` }];
  if (pipe) checks.push(await pipeGuardCheck(descriptor.socket, suffix, options.hostTimeoutMs ?? 3000, secret));
  if (!status.extension) {
    checks.push({ name: `extension connected ${suffix}`, status: 'fail', detail: 'the host runs but has not heard from the extension', fix: 'reload chrome-relay in chrome://extensions', code: 'extension_not_connected', reason: 'starting' });
    return checks;
  }
  const browser = browserLabel(descriptor, status.browser?.userAgent ?? null, executableOf);
  checks.push({ name: `extension connected ${suffix}`, status: 'ok', detail: `${browser}, ${profileLabel(descriptor.profile, true)}, extension ${status.extension.id} ${status.extension.version}` });
  const paused = status.pausedSince ?? null;
  if (paused !== null) checks.push(pausedCheck(suffix, paused));
  // While paused no tab may be touched, not even by doctor's own check: the page is not tried.
  checks.push(...(await roundTripChecks(descriptor.socket, suffix, options.pingTimeoutMs ?? PING_TIMEOUT_MS, paused === null)));
  checks.push(versionCheck(`versions ${suffix}`, options.cliVersion ?? VERSION, status.host, status.extension));
  return checks;
}

/**
 * A named pipe has no file modes: what keeps other users (and clients reaching the machine's pipes over the
 * network) out is that the host answers only clients proving they can read this user's secret. Proven the
 * way a stranger would try it: a call without the proof must be refused.
 */
async function pipeGuardCheck(pipe: string, suffix: string, timeoutMs: number, secret: string | null): Promise<Check> {
  const name = `host access ${suffix}`;
  let answer: string;
  try {
    const response = await callSocket(pipe, 'status', {}, timeoutMs, { withoutProof: true });
    if (!response.ok && response.error.details.reason === 'client_not_authorized') {
      return { name, status: 'ok', detail: `the named pipe refuses clients without this user's secret (${secret ?? 'none'}), as it must: a pipe has no file modes` };
    }
    answer = response.ok ? 'it answered' : `it answered ${response.error.code}`;
  } catch (error) {
    const relay = RelayError.from(error, 'status', 'connect');
    answer = `${relay.code}: ${relay.message}`;
  }
  return {
    name,
    status: 'fail',
    detail: `a client without this user's secret was not refused (${answer}): any local user, or anyone reaching this machine's pipes over the network, could drive this browser`,
    fix: 'chrome-relay update (installs a host that requires the secret), then restart the browser',
    code: 'native_host_disconnected',
    reason: 'host_unsafe',
  };
}

/** The person paused agents: nothing is broken, and nothing an agent or doctor does changes it. */
function pausedCheck(suffix: string, since: number): Check {
  const at = new Date(since).toISOString().replace('T', ' ').slice(0, 19);
  return {
    name: `not paused ${suffix}`,
    status: 'fail',
    detail: `paused by the person since ${at} UTC (Pause in chrome-relay's toolbar popup): every agent command is refused with paused_by_user until they press Resume`,
    fix: 'ask the person to press Resume in the chrome-relay toolbar popup; nothing else needs fixing',
    code: 'target_conflict',
    reason: 'paused_by_user',
  };
}

/** Long enough for a busy but healthy worker, short enough that doctor on a wedged one returns promptly. */
const PING_TIMEOUT_MS = 3000;

/** Errors the host itself produces when the extension did not answer (as opposed to an answer that is an error). */
const fromHost = (error: RelayErrorData): boolean => error.phase === 'host' || error.phase === 'transport' || error.phase === 'connect';

function notAnswering(suffix: string, timeoutMs: number, why: string): Check {
  return {
    name: `extension answering ${suffix}`,
    status: 'fail',
    detail: `connected, but the extension did not answer a ping within ${timeoutMs} ms (${why}): its service worker is stuck or busy, so every call would wait out its --timeout`,
    fix: 'reload chrome-relay in chrome://extensions (restarts its service worker, not the browser), then run `chrome-relay reconnect` to re-arm calls at once; calls also resume by themselves once it answers',
    code: 'timeout',
    reason: 'extension_unresponsive',
  };
}

/** The real round trip: `ping` is answered by the extension's service worker, and with `page` by chrome-relay's tab. */
async function roundTripChecks(socket: string, suffix: string, timeoutMs: number, tryPage: boolean): Promise<Check[]> {
  const started = Date.now();
  let response;
  try {
    response = await callSocket(socket, 'ping', tryPage ? { page: true } : {}, timeoutMs);
  } catch (error) {
    const relay = RelayError.from(error, 'ping', 'transport');
    return [notAnswering(suffix, timeoutMs, `${relay.code}: ${relay.message}`)];
  }
  const ms = Date.now() - started;
  const name = `extension answering ${suffix}`;
  if (!response.ok) {
    const error = response.error;
    if (fromHost(error)) return [notAnswering(suffix, timeoutMs, `${error.code}: ${error.message}`)];
    // An error *from* the extension is still an answer (an extension older than ping says unsupported_tool).
    return [{ name, status: 'ok', detail: `answered in ${ms} ms (with ${error.code}: an extension older than this CLI; see versions)` }];
  }
  const answered: Check = { name, status: 'ok', detail: `its service worker answered a ping in ${ms} ms` };
  const result = TOOLS.ping.result.safeParse(response.result);
  // A shape this CLI cannot read is version skew, which the versions check reports; the answer still came.
  if (!result.success) return [answered];
  return tryPage ? [answered, pageCheck(suffix, result.data.page ?? null)] : [answered, { name: `tab answering ${suffix}`, status: 'skip', detail: 'not tried while the person has agents paused' }];
}

function pageCheck(suffix: string, page: NonNullable<ToolResult<'ping'>['page']> | null): Check {
  const name = `tab answering ${suffix}`;
  if (page === null) return { name, status: 'skip', detail: 'chrome-relay has no open tab to try' };
  const tab = `tab ${page.tabId} (${page.url.slice(0, 200)})`;
  if (page.answered) return { name, status: 'ok', detail: `${tab} evaluated \`1\` in ${page.ms} ms` };
  return {
    name,
    status: 'fail',
    detail: `${tab} did not answer: ${page.problem ?? 'no reason given'}`,
    fix: `\`chrome-relay snapshot --tab ${page.tabId}\` shows what blocks it (an open dialog: \`chrome-relay dialog dismiss --tab ${page.tabId}\`); a stuck page: reload or close that tab. Other tabs are not affected.`,
    code: 'timeout',
    reason: 'page_busy',
  };
}

function findOnPath(program: string, pathEnv: string | undefined): string | null {
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

/** What a browser's log says when it lost its X display (no server, or the server went away). */
export const NO_DISPLAY = /Missing X server or \$DISPLAY|cannot open display|X connection error|X IO error|Gtk-WARNING \*\*: [^\n]*cannot open display/i;

/**
 * A browser `launch` started that is no longer running (and whose profile has no live host): name why, from
 * its log, and above all when it lost its display — the usual death of a headful browser on a machine
 * without one (e.g. started under xvfb-run, whose X server ends with the command it wraps).
 */
function launchedChecks(options: DoctorOptions, platform: Platform, liveProfiles: ReadonlySet<string | null>): Check[] {
  const checks: Check[] = [];
  for (const state of launchedStates(options.home, platform)) {
    if (state.browserRunning || liveProfiles.has(state.profile) || (options.profile && state.profile !== options.profile)) continue;
    let tail = '';
    try {
      tail = readFileSync(state.log, 'utf8').split('\n').slice(-40).join('\n');
    } catch {
      // No log left: said below.
    }
    const lostDisplay = NO_DISPLAY.exec(tail)?.[0];
    const lastLine = tail.trim().split('\n').at(-1)?.slice(0, 200) ?? '';
    const display = state.xvfb === null ? '' : state.xvfb.running ? `; the display ${state.xvfb.display} launch started for it still runs (pid ${state.xvfb.pid})` : '';
    const why = lostDisplay !== undefined ? `it lost its X display ("${lostDisplay}" in ${state.log})` : lastLine !== '' ? `its log ${state.log} ends: ${lastLine}` : `see ${state.log}`;
    checks.push({
      name: `launched browser (profile ${state.profile})`,
      status: 'fail',
      detail: `the browser \`chrome-relay launch\` started (pid ${state.browserPid}, ${state.startedAt}) is no longer running: ${why}${display}`,
      fix:
        lostDisplay !== undefined
          ? `run \`chrome-relay stop --user-data-dir ${state.profile}\`, then \`chrome-relay launch --user-data-dir ${state.profile}\` without xvfb-run: on a machine without a display it starts and keeps its own (Xvfb), or add --headless`
          : `run \`chrome-relay stop --user-data-dir ${state.profile}\`, then \`chrome-relay launch --user-data-dir ${state.profile}\``,
      code: 'extension_not_connected',
      reason: 'no_host',
    });
  }
  return checks;
}

const FFMPEG_INSTALL: Readonly<Record<Platform['os'], string>> = {
  linux: 'Debian/Ubuntu: sudo apt-get install ffmpeg',
  darwin: 'brew install ffmpeg',
  win32: 'winget install --id Gyan.FFmpeg',
};

/** The home's own check: this user's, closed to others (homeTrust.ts); null when it is. */
function homeCheck(home: string): Check | null {
  const user = currentUser();
  const problem = homeProblem(home, user);
  if (problem === null || user === undefined) return null;
  const { what, fix } = describeHomeProblem(home, problem, user.uid);
  return {
    name: 'home',
    status: 'fail',
    detail: `${what}; what it holds could be another user's (host descriptors, sockets, the launcher), so doctor checked nothing in it and changed nothing`,
    fix,
    code: 'extension_not_connected',
    reason: 'home_not_private',
  };
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const platform = platformOfEnv(options.browserEnv);
  const report = (checks: Check[]): DoctorReport => ({ healthy: !checks.some((c) => c.status === 'fail'), cli: { version: options.cliVersion ?? VERSION, protocolVersion: PROTOCOL_VERSION }, home: options.home, checks });
  // Before anything in the home is read, swept or trusted: a planted descriptor is never followed, nor removed as stale.
  const untrusted = homeCheck(options.home);
  if (untrusted !== null) return report([untrusted]);
  const record = readRecord(options.home);
  const ourIds = allowedExtensionIds(options.env ?? process.env, record.kind === 'ok' ? record.record.extensionIds : []);
  const checks: Check[] = [checkHostFiles(options.home, platform, options.env ?? process.env), ...manifestChecks(options, ourIds, platform)];

  const swept = await sweepStaleHosts(runDir(options.home));
  const kept = swept.kept.map((k) => `${k.path} (${k.reason})`);
  checks.push({
    name: 'stale hosts',
    status: kept.length > 0 ? 'warn' : 'ok',
    detail: [swept.removed.length > 0 ? `removed ${swept.removed.join(', ')}` : 'none found', ...(kept.length > 0 ? [`kept ${kept.join(', ')}`] : [])].join('; '),
    ...(kept.length > 0 ? { fix: 'remove the kept files by hand once no browser uses them' } : {}),
  });

  const live = listDescriptors(options.home).filter((d) => d.alive && (!options.profile || d.descriptor.profile === options.profile));
  if (live.length === 0) {
    checks.push({
      name: 'extension connected',
      status: 'fail',
      detail: `no browser with the chrome-relay extension is connected${options.profile ? ` for profile ${options.profile}` : ''} (no live host in ${runDir(options.home)})`,
      fix: 'start the browser and make sure chrome-relay is enabled in chrome://extensions, or run `chrome-relay launch`',
      code: 'extension_not_connected',
      reason: 'no_host',
    });
  }
  for (const { descriptor } of live) checks.push(...(await hostChecks(options, descriptor, platform)));
  checks.push(...launchedChecks(options, platform, new Set(live.map((d) => d.descriptor.profile))));

  const ffmpeg = findOnPath(platform.programFile('ffmpeg'), options.pathEnv);
  checks.push(
    ffmpeg
      ? { name: 'ffmpeg', status: 'ok', detail: ffmpeg }
      : { name: 'ffmpeg', status: 'warn', detail: 'not on PATH; only screen recording needs it', fix: `install ffmpeg (${FFMPEG_INSTALL[platform.os]})` },
  );

  return report(checks);
}

const MARK: Record<CheckStatus, string> = { ok: '[ok]  ', warn: '[warn]', fail: '[FAIL]', skip: '[skip]' };

/** Plain text, no colour: one line per check, the fix indented under a failing or warning line. */
export function renderReport(report: DoctorReport): string {
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  return [
    `chrome-relay doctor — cli ${report.cli.version} (protocol ${report.cli.protocolVersion}), home ${report.home}`,
    ...report.checks.map((c) => `${MARK[c.status]} ${c.name}: ${c.detail}${c.fix ? `\n       fix: ${c.fix}` : ''}`),
    report.healthy ? 'healthy: yes' : `healthy: no (${failed} failing)`,
  ].join('\n');
}

/** The error an unhealthy report exits with: the first failure's code, every failing check in details. */
export function unhealthyError(report: DoctorReport): RelayError | null {
  const failed = report.checks.filter((c) => c.status === 'fail');
  const first = failed[0];
  if (!first) return null;
  return new RelayError(first.code ?? 'extension_not_connected', `doctor: ${failed.length} check(s) failed; first: ${first.name}: ${first.detail}. Fix: ${first.fix ?? 'see the checklist'}`, {
    tool: 'doctor',
    phase: 'verify',
    details: {
      ...(first.reason === undefined ? {} : { reason: first.reason }),
      failed: failed.map((c) => ({ name: c.name, detail: c.detail, fix: c.fix ?? null, code: c.code ?? null, ...(c.reason === undefined ? {} : { reason: c.reason }) })),
    },
  });
}
