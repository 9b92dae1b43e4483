import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Environment variable that relocates all per-user state (sockets, descriptors, profiles). Same as protocol HOME_ENV. */
const HOME_ENV = 'CHROME_RELAY_HOME';

/**
 * $CHROME_RELAY_HOME made absolute, else ~/.chrome-relay. Absolute because the CLI and the host run
 * in different working directories (the host's is the browser's): a relative home would name two
 * places. An empty variable is unset — resolving '' would silently mean the current directory.
 */
export function relayHome(env: NodeJS.ProcessEnv = process.env, userHome: string = homedir()): string {
  const fromEnv = env[HOME_ENV];
  return fromEnv ? resolve(fromEnv) : join(userHome, '.chrome-relay');
}

export function runDir(home: string): string {
  return join(home, 'run');
}
