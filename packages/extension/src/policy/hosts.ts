/**
 * One canonical form for every way to write a host, so a block rule and a URL meet on the same name however either
 * is spelled. The URL parser (Chrome's, and the WHATWG one in Node: they agree) already folds most spellings:
 * case, IDN to punycode, IPv4 in decimal, hex, octal or shorthand (`2130706434`, `0x7f.1`, `0177.0.0.02`,
 * `127.2`), full-width digits, percent-escapes in the host, a trailing dot on an IPv4 address, IPv6 in any
 * compression. What it leaves, this module folds:
 *
 * - a trailing dot on a name (`bank.test.` is `bank.test` to DNS);
 * - **an IPv4 address written as IPv6**: IPv4-mapped `[::ffff:a.b.c.d]` (Chrome connects to the IPv4 address:
 *   measured, `http://[::ffff:127.0.0.2]:PORT/` reaches a server on 127.0.0.2), IPv4-translated
 *   `[::ffff:0:a.b.c.d]`, the NAT64 prefixes `[64:ff9b::a.b.c.d]` and `[64:ff9b:1::a.b.c.d]`, and the
 *   deprecated IPv4-compatible `[::a.b.c.d]` — each is its IPv4 address;
 * - **this machine**: `localhost` and every `*.localhost` (Chrome answers them itself, without DNS, with the
 *   loopback addresses), `127.0.0.1`, `[::1]`, and the unspecified addresses `0.0.0.0` and `[::]` (a connection
 *   to them reaches the loopback: measured, `http://0.0.0.0:PORT/` reaches a server on 127.0.0.1) are one host,
 *   `localhost`. (Other 127.x.y.z addresses are other addresses, as in the kernel.)
 *
 * `requestHostForms` goes the other way, for Chrome's request filter, which matches the URL as Chrome canonicalised
 * it and knows nothing of these equivalences: every spelling of a canonical host that a request's URL can carry.
 * What this cannot fold (say so in docs/security.md): a name DNS resolves to a blocked address, a server listening
 * on every address of its machine, and IPv6 prefixes a network translates to IPv4 by its own choice.
 */

/** The canonical name of this machine. */
export const LOOPBACK = 'localhost';

/** The 8 16-bit pieces of an IPv6 address written as the URL parser writes it (hex, `::` compression); undefined if not one. */
function ipv6Pieces(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string | undefined): number[] | undefined => {
    if (part === undefined || part === '') return [];
    const pieces = part.split(':').map((piece) => (/^[0-9a-f]{1,4}$/.test(piece) ? parseInt(piece, 16) : Number.NaN));
    return pieces.some(Number.isNaN) ? undefined : pieces;
  };
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  return [...head, ...new Array<number>(halves.length === 1 ? 0 : missing).fill(0), ...tail];
}

/** The IPv6 prefixes (first 6 pieces) under which the last 32 bits are an IPv4 address, as `[::…]` text before it. */
const IPV4_IN_IPV6: readonly { readonly pieces: readonly number[]; readonly text: string }[] = [
  { pieces: [0, 0, 0, 0, 0, 0xffff], text: '::ffff:' },
  { pieces: [0, 0, 0, 0, 0xffff, 0], text: '::ffff:0:' },
  { pieces: [0x64, 0xff9b, 0, 0, 0, 0], text: '64:ff9b::' },
  { pieces: [0x64, 0xff9b, 1, 0, 0, 0], text: '64:ff9b:1::' },
  // IPv4-compatible: only where the IPv4 part is an address (not ::, ::1 or ::0.0.x.y, which are IPv6's own).
  { pieces: [0, 0, 0, 0, 0, 0], text: '::' },
];

/** The IPv4 address an IPv6 address spells (dotted), or undefined. */
function embeddedIpv4(pieces: readonly number[]): string | undefined {
  const high = pieces[6] ?? 0;
  const low = pieces[7] ?? 0;
  for (const prefix of IPV4_IN_IPV6) {
    if (!prefix.pieces.every((piece, i) => pieces[i] === piece)) continue;
    if (prefix.text === '::' && high === 0) return undefined;
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return undefined;
}

const isIpv4 = (host: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(host);

/**
 * The canonical form of a host the URL parser produced (URL.hostname): lower case, no trailing dot, an IPv4 address
 * written as IPv6 as its dotted form, and every name and address of this machine as `localhost`.
 */
export function canonicalHostname(hostname: string): string {
  let host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host.startsWith('[') && host.endsWith(']')) {
    const pieces = ipv6Pieces(host.slice(1, -1));
    if (pieces === undefined) return host;
    // [::] and [::1]: the unspecified address and the loopback.
    if (pieces.slice(0, 7).every((piece) => piece === 0) && (pieces[7] === 0 || pieces[7] === 1)) return LOOPBACK;
    host = embeddedIpv4(pieces) ?? host;
  }
  if (host === '127.0.0.1' || host === '0.0.0.0' || host === LOOPBACK || host.endsWith(`.${LOOPBACK}`)) return LOOPBACK;
  return host;
}

/** How the URL parser writes an IPv6 address given with an IPv4 tail (`::ffff:127.0.0.2` → `[::ffff:7f00:2]`). */
function ipv6Text(prefix: string, ipv4: string): string | undefined {
  try {
    return new URL(`http://[${prefix}${ipv4}]/`).hostname;
  } catch {
    return undefined;
  }
}

/** Every IPv6 spelling of an IPv4 address that canonicalHostname folds back to it. */
function ipv6Spellings(ipv4: string): string[] {
  const out: string[] = [];
  for (const prefix of IPV4_IN_IPV6) {
    const text = ipv6Text(prefix.text, ipv4);
    if (text !== undefined && canonicalHostname(text) === canonicalHostname(ipv4)) out.push(text);
  }
  return out;
}

/**
 * Every host a request's URL can carry (as Chrome canonicalises it) that canonicalHostname folds to `canonical`:
 * names (which also stand for their subdomains), dotted IPv4 addresses and bracketed IPv6 addresses.
 */
export function requestHostForms(canonical: string): string[] {
  if (canonical === LOOPBACK) return [...new Set([LOOPBACK, '127.0.0.1', '0.0.0.0', '[::1]', '[::]', ...ipv6Spellings('127.0.0.1'), ...ipv6Spellings('0.0.0.0')])];
  if (isIpv4(canonical)) return [canonical, ...ipv6Spellings(canonical)];
  return [canonical];
}
