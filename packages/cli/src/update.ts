/**
 * `chrome-relay update`: install this CLI's host bundle into <home>/host, then have every connected
 * browser switch to it. A host is started by Chrome and lives exactly as long as the extension's native
 * port, so "switch" means: ask the extension to drop its port and connect again (internal tool
 * `restart_host`). Chrome then closes the old host's stdin (it exits) and starts the launcher again, which
 * runs the new bundle. That cuts every call in flight through that host, which is why only update sends it
 * (it is no command and no batch step; `chrome-relay reconnect` is the harmless re-arm).
 *
 * It also refreshes the extension folder a person loads (extensionFolder.ts); an extension already loaded
 * from it runs the old code until the person reloads it, which the result says.
 *
 * Done means, for every host that was connected: the old host process is gone and a new host for the same
 * browser is connected and reports this CLI's version. Anything less fails the command; the new files stay
 * installed either way (they are what the next browser start uses), and the error says so.
 */
import { parseResult, reasonedError, RelayError, RESTART_ANSWER_MS, RESTART_DRAIN_MS, VERSION, type HostDescriptor } from '@chrome-relay/protocol';
import { isPidAlive } from '@chrome-relay/host-files';
import { installExtension, type ExtensionFolder } from './extensionFolder.js';
import { listDescriptors } from './discovery.js';
import { install } from './install.js';
import { callSocket } from './socketCall.js';

/** The tool the extension answers before dropping its port. */
const RESTART_HOST_TOOL = 'restart_host';

export interface UpdateOptions {
  home: string;
  /** Only reconnect the browser running this profile. */
  profile?: string | undefined;
  /** How long each browser gets to start the new host. */
  timeoutMs: number;
  extensionIds: readonly string[];
  hostSource?: string;
  /** The unpacked extension to copy into the home (default: the one next to this CLI). */
  extensionSource?: string;
  isAlive?: (pid: number) => boolean;
}

export interface ReconnectedHost {
  profile: string | null;
  browserPid: number | null;
  oldHostPid: number;
  newHostPid: number;
  hostVersion: string;
}

export interface UpdateResult {
  launcher: string;
  hostFile: string;
  version: string;
  reconnected: ReconnectedHost[];
  /** The extension folder, and what the person must do for the new extension to run (null: nothing). */
  extension: ExtensionFolder & { reload: string | null };
}

/** What a person does after the folder they loaded got a new build. */
export function reloadAdvice(folder: ExtensionFolder): string | null {
  if (!folder.refreshed) return null;
  return `The extension folder ${folder.path} now holds ${folder.version}${folder.previousVersion !== null && folder.previousVersion !== folder.version ? ` (was ${folder.previousVersion})` : ''}: in each browser you loaded it in, open chrome://extensions and click the reload arrow on chrome-relay. Browsers started by \`chrome-relay launch\` load the new one at their next start.`;
}

interface Failure {
  profile: string | null;
  hostPid: number;
  error: RelayError;
}

const sameBrowser = (a: HostDescriptor, b: HostDescriptor): boolean =>
  a.browserPid !== null && b.browserPid !== null ? a.browserPid === b.browserPid : a.profile === b.profile;

/** `oldPids`: every host being replaced, so one old host is never taken for another's successor. */
async function waitForSuccessor(old: HostDescriptor, oldPids: ReadonlySet<number>, options: UpdateOptions, deadline: number): Promise<HostDescriptor> {
  const isAlive = options.isAlive ?? isPidAlive;
  for (;;) {
    const oldGone = !isAlive(old.pid);
    const successor = listDescriptors(options.home).find((d) => d.alive && !oldPids.has(d.descriptor.pid) && sameBrowser(d.descriptor, old))?.descriptor;
    if (oldGone && successor) return successor;
    if (Date.now() > deadline) {
      const what = oldGone ? 'no new host connected' : `the old host (pid ${old.pid}) is still running`;
      throw reasonedError('timeout', 'host_not_replaced', `After ${RESTART_HOST_TOOL}, ${what} within ${options.timeoutMs} ms; run \`chrome-relay doctor\` (restarting the browser always starts the installed host).`, {
        tool: 'update',
        phase: 'verify',
        details: { oldHostPid: old.pid, oldHostAlive: !oldGone, successorPid: successor?.pid ?? null, timeoutMs: options.timeoutMs },
      });
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * An extension older than `restart_host` does not know it. Reloading the extension does the same swap
 * (its new port starts the installed host), so say that instead of only "update the extension".
 */
function restartRefused(error: RelayError): RelayError {
  if (error.code !== 'unsupported_tool') return error;
  return new RelayError(
    'unsupported_tool',
    `The running extension cannot restart its host (it predates \`${RESTART_HOST_TOOL}\`): reload chrome-relay in chrome://extensions — it reconnects and starts the installed host.`,
    { tool: 'update', phase: error.phase, details: { ...error.details, tool: RESTART_HOST_TOOL }, retryable: false },
  );
}

async function reconnectOne(old: HostDescriptor, oldPids: ReadonlySet<number>, options: UpdateOptions): Promise<ReconnectedHost> {
  // The host first lets every call in flight finish (at most RESTART_DRAIN_MS), then answers.
  const response = await callSocket(old.socket, RESTART_HOST_TOOL, {}, RESTART_DRAIN_MS + RESTART_ANSWER_MS);
  if (!response.ok) throw restartRefused(RelayError.fromData(response.error));
  const { reconnectInMs: delay } = parseResult(RESTART_HOST_TOOL, response.result);
  const successor = await waitForSuccessor(old, oldPids, options, Date.now() + delay + options.timeoutMs);
  if (successor.host.version !== VERSION) {
    throw new RelayError(
      'partial_success_disallowed',
      `The browser restarted a host of version ${successor.host.version}, not the installed ${VERSION}: its manifest points at another launcher. Run \`chrome-relay doctor\`.`,
      { tool: 'update', phase: 'verify', details: { newHostPid: successor.pid, hostVersion: successor.host.version } },
    );
  }
  return { profile: old.profile, browserPid: old.browserPid, oldHostPid: old.pid, newHostPid: successor.pid, hostVersion: successor.host.version };
}

export async function update(options: UpdateOptions): Promise<UpdateResult> {
  const connected = listDescriptors(options.home)
    .filter((d) => d.alive && (!options.profile || d.descriptor.profile === options.profile))
    .map((d) => d.descriptor);
  const installed = install(options.home, [], options.extensionIds, options.hostSource ? { hostSource: options.hostSource } : {});
  const folder = installExtension(options.home, options.extensionSource);
  const result: UpdateResult = { launcher: installed.launcher, hostFile: installed.hostFile, version: VERSION, reconnected: [], extension: { ...folder, reload: reloadAdvice(folder) } };

  const oldPids = new Set(connected.map((d) => d.pid));
  const outcomes = await Promise.all(
    connected.map(async (old): Promise<ReconnectedHost | Failure> => {
      try {
        return await reconnectOne(old, oldPids, options);
      } catch (error) {
        return { profile: old.profile, hostPid: old.pid, error: RelayError.from(error, 'update', 'act') };
      }
    }),
  );
  const failures: Failure[] = [];
  for (const outcome of outcomes) {
    if ('error' in outcome) failures.push(outcome);
    else result.reconnected.push(outcome);
  }
  if (failures.length === 0) return result;

  const installedNote = `The new host is installed at ${installed.hostFile} and is used from the next browser start.`;
  const only = failures[0];
  if (only && connected.length === 1) {
    // One browser: its own error (e.g. unsupported_tool from an extension without `restart_host`) says most.
    throw new RelayError(only.error.code, `${only.error.message} ${installedNote}`, {
      tool: 'update',
      phase: only.error.phase,
      details: { ...only.error.details, hostPid: only.hostPid, profile: only.profile, hostFile: installed.hostFile },
      retryable: only.error.retryable,
    });
  }
  throw new RelayError('partial_success_disallowed', `${failures.length} of ${connected.length} browser(s) did not switch to the new host. ${installedNote}`, {
    tool: 'update',
    phase: 'act',
    details: {
      applied: result.reconnected,
      failed: failures.map((f) => ({ profile: f.profile, hostPid: f.hostPid, code: f.error.code, message: f.error.message })),
      hostFile: installed.hostFile,
    },
  });
}
