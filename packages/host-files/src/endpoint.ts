/** A named pipe (`\\.\pipe\…`, Windows) rather than a Unix socket: no file of its own, gone with its server. */
export function isNamedPipe(endpoint: string): boolean {
  return /^\\\\[.?]\\pipe\\/i.test(endpoint);
}
