/**
 * A call that lost its native host (native_host_disconnected): what the agent should do depends on what became of
 * the browser, which neither the host nor the extension can know when they go. The host says what it saw (killed,
 * stopped, or the browser closed its side); here, knowing the host's browser from its descriptor, the CLI looks:
 * - the browser process is gone → `browser_closed`: nothing starts a host again until someone starts the browser.
 *   A person's own browser is theirs to reopen; only a browser `chrome-relay launch` started (descriptor
 *   `launched`) is the agent's to start again. Never `launch` in place of a person's browser: that is a second,
 *   different browser.
 * - a new host of the same profile appears → the reason stands (`host_exited`, `worker_stopped`): a retry works.
 * - the browser runs and no host came within LOOK_MS → the reason stands too (a stopped service worker comes back
 *   with the browser's next event, which may be seconds away).
 * A browser whose pid is unknown (Windows: the host's parent is a cmd.exe) cannot be looked at: the host's words
 * (which name both possibilities) stand.
 *
 * Chromium closes a host's stdin while it shuts down, before its own process ends, so the look waits for the
 * process to go rather than deciding at once.
 */
import { isPidAlive } from '@chrome-relay/host-files';
import { PHASE_TABLE, reasonedError, RelayError, toolLabel, toolMutates, type ClientResponse, type HostDescriptor } from '@chrome-relay/protocol';
import { listDescriptors } from './discovery.js';
import { defaultProfileDir } from './paths.js';

/** How long to look for the browser's exit or a new host before the host's own reason stands. */
export const LOOK_MS = 5000;
const POLL_MS = 100;

export interface BrowserLook {
  alive(pid: number): boolean;
  /** Whether a live host other than `pid` now serves `profile` (the browser started a new one). */
  successor(profile: string | null, pid: number): boolean;
  sleep(ms: number): Promise<void>;
  now(): number;
}

function systemLook(home: string): BrowserLook {
  return {
    alive: isPidAlive,
    successor: (profile, pid) => listDescriptors(home).some((d) => d.alive && d.descriptor.pid !== pid && d.descriptor.profile === profile),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
  };
}

/** Reasons the host gives while it cannot know whether the browser is still there. */
const UNSURE = new Set<unknown>(['host_exited', 'worker_stopped']);

/** `error` itself, or — when the host's browser turns out to be gone — the browser_closed form. */
export async function explainLostHost(error: RelayError, host: HostDescriptor, home: string, look: BrowserLook = systemLook(home)): Promise<RelayError> {
  if (error.code !== 'native_host_disconnected' || !UNSURE.has(error.details.reason)) return error;
  // `chrome-relay update` swapping the host: the browser is fine and starts the new one.
  if (error.details.cause === 'replacing') return error;
  const browserPid = host.browserPid;
  if (browserPid === null) return error;
  const giveUpAt = look.now() + LOOK_MS;
  for (;;) {
    if (!look.alive(browserPid)) return browserClosed(error, host, home, browserPid);
    if (look.successor(host.profile, host.pid) || look.now() >= giveUpAt) return error;
    await look.sleep(POLL_MS);
  }
}

function browserClosed(error: RelayError, host: HostDescriptor, home: string, browserPid: number): RelayError {
  const tool = toolLabel(error.tool);
  const mayHaveActed = toolMutates(error.tool) && !PHASE_TABLE[error.phase].beforeActing;
  const after = `Once it is back, look with \`chrome-relay snapshot\`${mayHaveActed ? ` before re-issuing ${tool}: it may already have taken effect` : ''}.`;
  const launched = host.launched === true && host.profile !== null;
  let message: string;
  if (launched && host.profile !== null) {
    const again = host.profile === defaultProfileDir(home) ? 'chrome-relay launch' : `chrome-relay launch --user-data-dir ${host.profile}`;
    message = `The browser \`chrome-relay launch\` started (pid ${browserPid}, profile ${host.profile}) has closed, cutting off ${tool}; nothing starts it again by itself. Run \`${again}\` to start it again. ${after}`;
  } else {
    message = `The person's browser (pid ${browserPid}${host.profile === null ? '' : `, profile ${host.profile}`}) has closed, cutting off ${tool}; nothing restarts it, and \`chrome-relay launch\` would start another, different browser. Tell the person their browser closed and ask them to reopen it. ${after}`;
  }
  return reasonedError('native_host_disconnected', 'browser_closed', message, {
    tool: error.tool,
    phase: error.phase,
    details: {
      ...error.details,
      browserPid,
      profile: host.profile,
      launched,
      ...(mayHaveActed ? { mayHaveActed: true } : {}),
    },
  });
}

/** The error a response carries, explained the same way (a host that exits on purpose answers before it goes). */
export async function explainLostHostResponse(response: ClientResponse, host: HostDescriptor, home: string, look?: BrowserLook): Promise<ClientResponse> {
  if (response.ok || response.error.code !== 'native_host_disconnected') return response;
  const explained = await explainLostHost(RelayError.fromData(response.error), host, home, look);
  return { ...response, error: explained.toData() };
}
