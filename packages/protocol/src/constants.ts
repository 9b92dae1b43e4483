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

/** Default deadline of one call, end to end. Tools with their own --timeout stay below it. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
