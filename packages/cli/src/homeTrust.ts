/**
 * The CLI trusts its home only when it is this user's own (host-files trust.ts: owner, modes, the folders above it):
 * otherwise another user's descriptor could point it at their socket, and every request — a `fill` value with it —
 * would go to them. Every command that reads or writes the home passes here first (globalOptions.ts), and so does
 * every search for a host (discovery.ts); `doctor` reports the problem instead, naming whose the folder is and the fix.
 */
import { readFileSync } from 'node:fs';
import { currentUser, homeProblem, type HomeProblem } from '@chrome-relay/host-files';
import { HOME_ENV, reasonedError, type RelayError } from '@chrome-relay/protocol';

/** A user's name from /etc/passwd, else `uid N` (no name service is asked: this runs on every CLI start that fails). */
function userLabel(uid: number): string {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (name !== undefined && name !== '' && id === String(uid)) return `${name} (uid ${uid})`;
    }
  } catch {
    // No passwd file (a container, macOS directory services): the number alone.
  }
  return `uid ${uid}`;
}

const octal = (mode: number): string => `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;

/** What is wrong, in words, and how to fix it, for the error's message and doctor's line. */
export function describeHomeProblem(home: string, problem: HomeProblem, uid: number): { what: string; fix: string } {
  const me = userLabel(uid);
  const which = problem.path === home ? `chrome-relay's home ${home}` : problem.own ? `its run folder ${problem.path}` : `${problem.path}, a folder above chrome-relay's home ${home},`;
  const elsewhere = `set ${HOME_ENV} to a folder of your own that only you can write (unset it to use ~/.chrome-relay)`;
  switch (problem.kind) {
    case 'owner':
      return {
        what: `${which} belongs to ${userLabel(problem.owner)}, not to you (${me})`,
        fix: problem.own ? `${elsewhere}; if the folder is rightly yours, make it so: \`chown -R ${uid} ${problem.path} && chmod 700 ${problem.path}\`` : elsewhere,
      };
    case 'writable':
      return {
        what: `${which} can be written by others (mode ${octal(problem.mode)}), so anyone could put their own files in place of chrome-relay's`,
        fix: problem.own ? `\`chmod 700 ${problem.path}\`, or ${elsewhere}` : `${elsewhere}, or close the folder to others: \`chmod o-w,g-w ${problem.path}\` (or \`chmod +t\` for a shared one like /tmp)`,
      };
    case 'not_directory':
      return { what: `${which} is not a folder (a file or a link)`, fix: `remove ${problem.path} (chrome-relay makes it again), or ${elsewhere}` };
  }
}

const verdicts = new Map<string, RelayError | null>();

/** Why this user must not trust `home`, as the closed error a command fails with; null when it may. Asked once per process. */
export function homeRefusal(home: string): RelayError | null {
  const known = verdicts.get(home);
  if (known !== undefined) return known;
  const user = currentUser();
  const problem = homeProblem(home, user);
  const refusal =
    problem === null || user === undefined
      ? null
      : reasonedError(
          'extension_not_connected',
          'home_not_private',
          `${describeHomeProblem(home, problem, user.uid).what}: what it holds could be another user's (a host descriptor, a socket, a launcher), so chrome-relay neither reads nor writes it and sent nothing. Run \`chrome-relay doctor\`: it names whose it is and the fix.`,
          { phase: 'connect', retryable: false, details: { home, path: problem.path, problem: problem.kind, owner: problem.owner, mode: octal(problem.mode) } },
        );
  verdicts.set(home, refusal);
  return refusal;
}

export function assertTrustedHome(home: string): void {
  const refusal = homeRefusal(home);
  if (refusal !== null) throw refusal;
}
