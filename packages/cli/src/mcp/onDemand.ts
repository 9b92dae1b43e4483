/**
 * A browser on demand for an MCP session. An agent in a desktop MCP client has no shell to run `chrome-relay
 * launch` in, so when no browser at all is connected (no host of any profile: `extension_not_connected`, reason
 * no_host) the server starts the dedicated one itself — what `launch` starts, on the home's default profile — on the
 * first call that needs a browser, says so in that call's answer, and ends it when the server ends.
 *
 * It never starts one beside the person's own browser: a connected host of any profile answers the call instead
 * (and a --profile naming another is target_not_found, not no_host). Once started, the session talks to that
 * profile only, so a browser that connects later never makes its calls ambiguous. `chrome-relay mcp --no-launch`
 * turns this off. A browser that was already running (another server started it) is used and left running.
 */
import { RelayError } from '@chrome-relay/protocol';
import { currentPlatform } from '@chrome-relay/host-files';
import { browserEnvFromProcess } from '../browsers.js';
import { launch, type LaunchResult } from '../launch.js';
import { readLaunchRecords, stopLaunched } from '../launched.js';

export interface OnDemandOptions {
  home: string;
  headless: boolean;
  /** The user's home directory (browsers' own profiles are found from it). */
  userHome: string;
}

/** What the call that started the browser says, as a notice (protocol NOTICE_CODES `browser_started`). */
export interface Started {
  launched: LaunchResult;
  message: string;
}

/** The failure that asks for a browser: nothing is connected at all. */
export function wantsBrowser(error: unknown): boolean {
  return error instanceof RelayError && error.code === 'extension_not_connected' && error.details.reason === 'no_host';
}

export class BrowserOnDemand {
  #starting: Promise<LaunchResult> | undefined;
  #ours: LaunchResult | undefined;

  constructor(private readonly options: OnDemandOptions) {}

  /** Start the dedicated browser once (concurrent calls share the start); what the call that started it says. */
  async start(): Promise<Started> {
    // The one it started is gone (the person closed its window, it crashed): start it again.
    if (this.#ours !== undefined && !currentPlatform().isPidAlive(this.#ours.pid)) {
      this.#ours = undefined;
      this.#starting = undefined;
    }
    this.#starting ??= launch({
      home: this.options.home,
      browserEnv: browserEnvFromProcess(this.options.userHome),
      headless: this.options.headless,
      browserArgs: [],
      timeoutMs: 30_000,
    }).catch((error: unknown) => {
      this.#starting = undefined;
      throw error;
    });
    const launched = await this.#starting;
    if (!launched.alreadyRunning) this.#ours = launched;
    const how = launched.headless === true ? 'headless' : 'with a window';
    const ends = launched.alreadyRunning ? 'it was already running and stays when this server ends' : 'it ends when this server ends';
    return {
      launched,
      message: `No browser was connected, so chrome-relay started its dedicated one for this session (${how}, pid ${launched.pid}, profile ${launched.profile}); ${ends}. The person's own browser is never started or touched.`,
    };
  }

  /** The profile the session talks to once a browser was started, so a browser connecting later does not compete. */
  profile(): string | undefined {
    return this.#ours?.profile;
  }

  /** End the browser this server started (not one it found running). */
  async stop(): Promise<void> {
    const ours = this.#ours;
    if (ours === undefined) return;
    this.#ours = undefined;
    const record = readLaunchRecords(this.options.home).find((r) => r.profile === ours.profile && r.browserPid === ours.pid);
    if (record === undefined) return;
    await stopLaunched(this.options.home, record, {
      platform: currentPlatform(),
      kill: (pid, signal) => process.kill(pid, signal),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
  }
}
