/**
 * The three operating systems chrome-relay knows. Every other Unix (FreeBSD, …) is treated as Linux:
 * Chromium builds there use the same XDG layout and Unix sockets.
 */
export type OsName = 'linux' | 'darwin' | 'win32';

export function osOf(platform: NodeJS.Platform): OsName {
  if (platform === 'win32') return 'win32';
  return platform === 'darwin' ? 'darwin' : 'linux';
}
