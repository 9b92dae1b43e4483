/** Names shared by the CLI (install, doctor, launch), the host and the extension. */

/** Native messaging host name (lowercase, dots and underscores only, per Chrome's rules). */
export const HOST_NAME = 'com.chrome_relay.host';

/**
 * Id of the development build, derived from the public key in the extension manifest's `key`.
 * A store build has its own id; install accepts more ids with --extension-id.
 */
export const DEV_EXTENSION_ID = 'nplipfneioajmjoiadbinnjjicindjlf';

/** Environment variable that relocates all per-user state (sockets, descriptors, profiles). */
export const HOME_ENV = 'CHROME_RELAY_HOME';

/**
 * Set by `launch` in the browser's environment: the profile it started, which the browser's native hosts
 * inherit. A host that cannot read its browser's command line (macOS, Windows) names its profile by it.
 */
export const LAUNCHED_PROFILE_ENV = 'CHROME_RELAY_LAUNCHED_PROFILE';

/** Default deadline of one call, end to end. Tools with their own --timeout stay below it. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/**
 * `wait --timeout N` is the wait's own budget, not the call's: the call's deadline is N plus this, so
 * the wait gets its full N ms and still has time to report the page state (extension wait.ts keeps
 * DIAGNOSTICS_RESERVE_MS, the dispatcher DEADLINE_MARGIN_MS; a unit test keeps them inside it).
 */
export const WAIT_REPORT_MS = 1_500;

/**
 * How long the host lets calls in flight finish before it swaps itself out for `restart_host` (what
 * `chrome-relay update` sends): calls that started earlier are not cut unless they outlast this. `update`
 * waits this long plus RESTART_ANSWER_MS for the answer.
 */
export const RESTART_DRAIN_MS = 10_000;
/** Time `update` allows for the restart itself once the host has drained. */
export const RESTART_ANSWER_MS = 5_000;

/**
 * Agent identity (--agent, CHROME_RELAY_AGENT): what a lease owner may be called. Plain data so the CLI checks
 * it before a call without a schema library (messages.ts AgentSchema says the same).
 */
export const AGENT_NAME_PATTERN = /^[\w.@-]{1,64}$/;
export const AGENT_NAME_RULE = '1–64 letters, digits, "_", ".", "@" or "-"';
