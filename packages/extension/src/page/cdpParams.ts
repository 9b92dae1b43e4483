/** CDP event params arrive as `unknown` through chrome.debugger: the one narrowing the page modules share. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
