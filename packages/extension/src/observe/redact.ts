/**
 * Header redaction. Captured traffic ends up in agent transcripts and HAR files people share, so
 * credentials are masked unless the caller asks for raw headers. Names are matched case-insensitively;
 * anything that looks like a token, secret, API key or session is masked too, because sites invent
 * their own names for those (x-csrf-token, x-goog-api-key, x-amz-security-token …).
 */
export const REDACTED = '[redacted]';

const EXACT = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization', 'x-api-key']);
const PATTERN = /token|secret|api[-_]?key|session|password|auth/i;

export function isSensitiveHeader(name: string): boolean {
  return EXACT.has(name.toLowerCase()) || PATTERN.test(name);
}

export function redactHeaders(headers: Readonly<Record<string, string>>, raw: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) out[key] = !raw && isSensitiveHeader(key) ? REDACTED : value;
  return out;
}
