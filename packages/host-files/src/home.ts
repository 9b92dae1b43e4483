import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';
import { osOf, type OsName } from './platform/os.js';
import { platformOf } from './platform/platform.js';
import { HOME_ENV } from './privateDir.js';

/**
 * $CHROME_RELAY_HOME made absolute, else this OS's default (~/.chrome-relay; %LOCALAPPDATA%\chrome-relay on
 * Windows). Absolute because the CLI and the host run in different working directories (the host's is the
 * browser's): a relative home would name two places. An empty variable is unset — resolving '' would
 * silently mean the current directory.
 */
export function relayHome(env: NodeJS.ProcessEnv = process.env, userHome: string = homedir(), os: OsName = osOf(process.platform)): string {
  const fromEnv = env[HOME_ENV];
  if (fromEnv) return os === 'win32' ? win32.resolve(fromEnv) : posix.resolve(fromEnv);
  return platformOf(os).defaultHome({ env, userHome });
}

export function runDir(home: string): string {
  return join(home, 'run');
}
