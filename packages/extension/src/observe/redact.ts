/**
 * Redaction. Captured traffic and console output end up in agent transcripts and in HAR files people
 * share, so credentials are masked unless the caller asks for raw data (`rawHeaders`).
 *
 * - Headers: by exact name (Cookie, Authorization…) and by pattern, because sites invent their own
 *   names (x-csrf-token, x-goog-api-key, x-amz-security-token…). Headers that carry a URL (Referer,
 *   Location…) get the URL rules.
 * - URLs: the values of query and fragment parameters with sensitive names (token, access_token,
 *   api_key, password, sig, code… — OAuth puts tokens in the fragment) and the password of user info.
 *   The rest of the URL stays as it was, so an agent still sees which endpoint was called.
 * - Free text (console): `Bearer …`/`Basic …` credentials, JSON Web Tokens, `name=value` and
 *   `"name": "value"` pairs with sensitive names, and any value the caller knows to be secret (the
 *   tab's cookie values: `console.log(document.cookie)` prints them under any name).
 */
export const REDACTED = '[redacted]';

const EXACT_HEADERS = new Set(['cookie', 'set-cookie', 'authorization', 'proxy-authorization', 'x-api-key']);
const HEADER_PATTERN = /token|secret|api[-_]?key|session|password|auth/i;
const URL_HEADERS = new Set(['referer', 'location', 'content-location', 'refresh']);

/** Parameter names whose value is a credential in a URL (query or fragment). */
const URL_PARAMS = new Set(['code', 'sig', 'key', 'sid', 'ticket', 'pass', 'pwd', 'passwd', 'otp', 'jwt', 'assertion', 'samlresponse']);
/** Outside URLs, short names like `code` or `key` are mostly not secrets ("exit code=1"): only these. */
const TEXT_PARAMS = new Set(['pwd', 'passwd', 'otp', 'jwt']);
const PARAM_PATTERN = /token|secret|passw|api[-_]?key|apikey|session|credential|auth|signature|private[-_]?key/i;

export function isSensitiveHeader(name: string): boolean {
  return EXACT_HEADERS.has(name.toLowerCase()) || HEADER_PATTERN.test(name);
}

/** Whether a parameter of this name holds a credential: in a URL (`inUrl`), or in free text. */
export function isSensitiveParam(name: string, inUrl = true): boolean {
  const lower = safeDecode(name).toLowerCase();
  return (inUrl ? URL_PARAMS : TEXT_PARAMS).has(lower) || PARAM_PATTERN.test(lower);
}

export function redactHeaders(headers: Readonly<Record<string, string>>, raw: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (raw) out[key] = value;
    else if (isSensitiveHeader(key)) out[key] = REDACTED;
    else if (URL_HEADERS.has(key.toLowerCase())) out[key] = redactUrl(value);
    else out[key] = value;
  }
  return out;
}

/**
 * The URL with the values of sensitive query/fragment parameters and any user-info password replaced.
 * Works on the text (not through URL, which would re-encode it), so what is not secret reads as before.
 */
export function redactUrl(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*@)?([^?#]*)(\?[^#]*)?(#.*)?$/is.exec(url);
  if (!match) return redactPairs(url);
  const [, scheme = '', userinfo, rest = '', query, fragment] = match;
  const user = userinfo === undefined ? '' : userinfo.includes(':') ? `${userinfo.slice(0, userinfo.indexOf(':'))}:${REDACTED}@` : userinfo;
  return `${scheme}${user}${rest}${query === undefined ? '' : `?${redactParams(query.slice(1))}`}${fragment === undefined ? '' : `#${redactParams(fragment.slice(1))}`}`;
}

/** `a=1&token=2` → `a=1&token=[redacted]`; a part without `=` is kept as it is. */
function redactParams(params: string): string {
  return params
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq <= 0) return part;
      return isSensitiveParam(part.slice(0, eq)) ? `${part.slice(0, eq)}=${REDACTED}` : part;
    })
    .join('&');
}

const BEARER = /\b(Bearer|Basic|Token|Digest)(\s+)[A-Za-z0-9\-._~+/]{8,}=*/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
/** name=value inside URLs (after ?, & or #), cookie strings and log lines. */
const PAIR = /([?&#]?)([A-Za-z0-9_.%-]+)=([^\s&;,"'<>)\]}]+)/g;
/** "name": "value" and name: 'value' (JSON and object literals as printed). */
const QUOTED_PAIR = /(["']?)([A-Za-z0-9_.-]+)\1(\s*[:=]\s*)(["'])((?:\\.|(?!\4).)*)\4/g;

/** Mask credentials in free text; `secrets` are exact values known to be secret (shorter than 6 are ignored). */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of [...new Set(secrets)].filter((s) => s.length >= 6).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(REDACTED);
  }
  out = out.replace(BEARER, (_all, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
  out = out.replace(JWT, REDACTED);
  out = out.replace(QUOTED_PAIR, (all, q: string, name: string, sep: string, quote: string) =>
    isSensitiveParam(name, false) ? `${q}${name}${q}${sep}${quote}${REDACTED}${quote}` : all,
  );
  return redactPairs(out);
}

function redactPairs(text: string): string {
  return text.replace(PAIR, (all, lead: string, name: string, value: string) => {
    if (value.startsWith(REDACTED.slice(0, -1))) return all;
    return isSensitiveParam(name, lead !== '') ? `${lead}${name}=${REDACTED}` : all;
  });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
