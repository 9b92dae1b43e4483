/**
 * Where a host keeps its files. The layout is part of the contract with the CLI, which finds hosts by
 * reading `<home>/run/host-*.json` (it re-implements this discovery; it never imports the host):
 *
 *   <home>/run/                 0700, one per user (home = $CHROME_RELAY_HOME or the OS's default,
 *                               host-files home.ts)
 *   <home>/run/host-<pid>.json  descriptor, 0600, names the endpoint
 *   <home>/run/host-<pid>.sock  Linux and macOS: the socket, 0600 — or, when that path would not fit in
 *                               sun_path, a short path in a directory only this user can have created
 *                               (host-files platform/posix.ts); the descriptor always names the real one
 *   \\.\pipe\chrome-relay-…     Windows: a named pipe instead (platform/win32.ts)
 */
import { join } from 'node:path';

/** The home and run dir, resolved the same way as the CLI does (@chrome-relay/host-files). */
export { relayHome as resolveHome, runDir, ensurePrivateDir, removeOwnSocketDir } from '@chrome-relay/host-files';

export function descriptorPath(run: string, pid: number): string {
  return join(run, `host-${pid}.json`);
}

/** The socket beside the descriptor: where it goes whenever the path fits in sun_path. */
export function preferredSocketPath(run: string, pid: number): string {
  return join(run, `host-${pid}.sock`);
}
