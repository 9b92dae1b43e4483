/**
 * What a bridge (`chrome-relay bridge --listen`, on the person's machine) keeps on disk and checks there: the folder
 * its socket goes in, and the pairing secret a bridge shared with other users (--paired) asks of its clients.
 *
 * - A private socket (the default) is 0600 in a folder only its user can enter: the kernel then lets only that user
 *   (and root) connect, as with the host's own socket. A folder that exists is never chmod-ed here (it may be the
 *   person's, chosen by hand): one that others can enter or write is refused, with the reason.
 * - A shared socket (--paired) is 0666, so an agent of another uid (a container's user) can connect; a folder
 *   others can write is still refused (they could put their own socket in its place). Every request must then carry
 *   a proof of the pairing secret — HMAC(secret, "chrome-relay client" NUL "bridge"), as a named pipe's clients prove
 *   the user's secret (secret.ts) — checked before anything of it is read. The secret never travels.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { clientProof, readOrCreateSecret } from './secret.js';
import { makeDirs } from './privateDir.js';

/** The pairing secret's file: `<home>/bridge/pairing`, 64 hex digits, 0600 in a 0700 folder. */
export function pairingFile(home: string): string {
  return join(home, 'bridge', 'pairing');
}

/** The pairing secret (created on first use, whole or not at all). */
export function pairingSecret(home: string): string {
  return readOrCreateSecret(pairingFile(home));
}

/** What a client presents to a paired bridge, from the secret it was given. */
export function pairingProof(secret: string): string {
  return clientProof(secret, 'bridge');
}

/** Whether `text` has the shape of a pairing secret (what CHROME_RELAY_PAIRING must hold). */
export function isPairingSecret(text: string): boolean {
  return /^[0-9a-f]{64}$/.test(text);
}

/**
 * Make the folder a bridge's socket goes in (0700) when it does not exist; else say why it cannot hold one, or null
 * when it can. `shared`: the socket is for other users too (--paired), so others may enter the folder, never write it.
 */
export function listenDirProblem(dir: string, uid: number, shared: boolean): string | null {
  let stat;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    makeDirs(dir, 0o700);
    stat = lstatSync(dir);
  }
  if (!stat.isDirectory()) return `${dir} is not a folder (a link or a file)`;
  if (stat.uid !== uid) return `${dir} belongs to uid ${stat.uid}, not to you (uid ${uid})`;
  const mode = stat.mode & 0o777;
  if ((mode & 0o022) !== 0) return `others can write in ${dir} (mode ${mode.toString(8)}): they could put a socket of their own in its place`;
  if (!shared && (mode & 0o077) !== 0) return `others can enter ${dir} (mode ${mode.toString(8)}); a private bridge needs a folder only you can enter (chmod 700 it), or --paired`;
  return null;
}
