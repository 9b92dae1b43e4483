/**
 * The platform seam: every fact chrome-relay needs that differs between Linux, macOS and Windows, behind
 * one interface with one implementation per OS (linux.ts, darwin.ts, win32.ts; the two Unixes share
 * posix.ts). Callers ask `platformOf(os)` — the CLI and the host for the OS they run on, tests for any
 * OS — and never branch on process.platform themselves.
 *
 * Each implementation computes paths with its own OS's path rules (path.win32 on Windows), so its unit
 * tests run on any machine and pin what it computes from the facts it is given (UserFacts: environment
 * and home directory, never read behind the caller's back).
 *
 * Concerns:
 * - homes: where per-user state lives by default (CHROME_RELAY_HOME overrides it; home.ts);
 * - the endpoint a host listens on: a Unix socket guarded by file modes, or a named pipe, which file modes
 *   cannot guard, so clients prove they know a per-user secret (secret.ts);
 * - process liveness;
 * - the host launcher a browser starts (a shell script, or a .cmd file run by cmd.exe);
 * - where browsers keep profiles, look for host manifests (a directory, or a registry key) and live.
 */
import type { BrowserSpec } from './browsers.js';
import type { OsName } from './os.js';

/** What an implementation reads about the user: passed in, so tests describe a machine as data. */
export interface UserFacts {
  readonly env: NodeJS.ProcessEnv;
  /** The OS user's home directory (os.homedir()), never CHROME_RELAY_HOME. */
  readonly userHome: string;
}

export interface EndpointRequest {
  /** The host's run dir, where its descriptor goes. */
  run: string;
  pid: number;
  uid: number;
  /** The host's home and the OS user's name: a pipe's name carries a hash of both. */
  home: string;
  userName: string;
  env: NodeJS.ProcessEnv;
  /** Where a last-resort private socket directory is made (default /tmp). */
  shortRoot?: string;
}

export interface Endpoint {
  /** A socket path, or a pipe name (\\.\pipe\…). */
  path: string;
  /** A directory made for this host alone, to remove when it exits (null when none was made). */
  ownDir: string | null;
  /** Why the endpoint is not beside the descriptor, for the host's log; null when it is. */
  note: string | null;
}

export interface LauncherSpec {
  /** Where the launcher is written. */
  file: string;
  node: string;
  hostFile: string;
  /** Variables the host gets unless the browser's environment already sets them (`path`: the value is a path). */
  defaults: readonly { name: string; value: string; path?: boolean }[];
  /** The environment the launcher is written in (Windows: the user's folders it may name by variable). */
  env: NodeJS.ProcessEnv;
}

export interface LauncherFormat {
  /** The launcher's file name in <home>/host. */
  readonly fileName: string;
  script(spec: LauncherSpec): string;
  /** The node and host file a launcher runs, read back from its text (null: not a launcher of ours). */
  targets(text: string, file: string, env: NodeJS.ProcessEnv): { node: string; hostFile: string } | null;
  /** Why the browser could not start `file` as a host, judged by its name alone; null when it can. */
  unstartable(file: string): string | null;
}

export interface BrowserPlaces {
  /** The default user-data-dir: it exists once the browser has run for this user. */
  userDataDir: string;
  /** Where user-level host manifests go (Linux, macOS), or null. */
  manifestDir: string | null;
  /** The registry key whose subkeys name host manifests (Windows), or null. */
  registryKey: string | null;
}

export interface Platform {
  readonly os: OsName;
  /** Two paths name the same file (Windows compares without case). */
  samePath(a: string, b: string): boolean;
  /** A program's file name as it sits on PATH (Windows: with .exe). */
  programFile(name: string): string;
  /** The home when CHROME_RELAY_HOME is unset. */
  defaultHome(user: UserFacts): string;
  /** The per-user secret clients present, or null where the endpoint is guarded by file modes. */
  secretFile(user: UserFacts): string | null;
  /** Where host `pid` listens (may create a private directory for it). */
  prepareEndpoint(request: EndpointRequest): Endpoint;
  /** Whether process `pid` is running (not gone, not a zombie). */
  isPidAlive(pid: number): boolean;
  /**
   * The command line of process `pid`, its words joined by spaces, or null where it cannot be read (gone,
   * or Windows, where only WMI tells). `stop` checks a recorded pid still runs what launch started before
   * it signals it: pids are reused.
   */
  commandLineOf(pid: number): string | null;
  readonly launcher: LauncherFormat;
  /**
   * Whether a browser started with --user-data-dir reads host manifests from that profile's own
   * NativeMessagingHosts directory (Linux, macOS). On Windows it reads only the registry, per browser.
   */
  readonly profileManifests: boolean;
  /** Where a browser keeps its profiles and looks for hosts here; null when it does not exist on this OS. */
  browserPlaces(spec: BrowserSpec, user: UserFacts): BrowserPlaces | null;
  /** Where the browser's executable may be, most likely first (the caller checks which exist). */
  browserExecutables(spec: BrowserSpec, user: UserFacts): string[];
  /** The program to run for a browser a person names by path (macOS: an .app bundle names its executable inside). */
  browserProgram(given: string): string;
}
