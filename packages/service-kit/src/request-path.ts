/**
 * The canonical form of a request path: the form the gateway forwards, and the form the identity
 * proof binds (`identity-proof.ts`: the gateway signs the canonical form of the path it
 * forwards, a service checks against the canonical form of the path it received).
 *
 * URL parsers disagree on the characters outside RFC 3986's path characters: Node's HTTP parser
 * takes `{`, `}`, `|`, `^`, `` ` ``, `"`, `<`, `>`, `[`, `]` and `#` as they are, the WHATWG URL
 * parser (reply-from's `new URL`, the `ws` client) percent-encodes some of them and reads `#` as
 * the start of a fragment, others decode an escaped unreserved character. The canonical form
 * holds none of those: every parser between the gateway and a service leaves it as it is, so
 * the service receives the very path the gateway signed; and a parser that encodes on the way
 * changes nothing to the canonical form of what arrives.
 *
 * - kept as they are: the unreserved characters (letters, digits, `-._~`), the sub-delims
 *   (`!$&'()*+,;=`), `:`, `@` and `/`;
 * - an escaped unreserved character is decoded (`%41` -> `A`, `%2E` -> `.`); any other escape
 *   is kept, with upper-case hex (`%c3%a9` -> `%C3%A9`, `%2f` -> `%2F`);
 * - any other character is percent-encoded as its UTF-8 bytes (`{` -> `%7B`, `é` -> `%C3%A9`,
 *   a lone surrogate as U+FFFD), and so is a `%` not followed by two hex digits (`%25`).
 *
 * Nothing else changes: no dot segment is resolved, no `//` collapsed, case is kept (the
 * gateway's own path rules do that before: `gateway/src/paths.ts`). The form is idempotent.
 */
export function canonicalPath(path: string): string {
  if (CANONICAL_AS_IT_IS.test(path)) return path;
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const char = path[i]!;
    if (char === '%') {
      const hex = path.slice(i + 1, i + 3);
      if (HEX_PAIR.test(hex)) {
        const decoded = String.fromCharCode(parseInt(hex, 16));
        out += UNRESERVED.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
        i += 2;
      } else {
        out += '%25';
      }
      continue;
    }
    if (PATH_CHAR.test(char)) {
      out += char;
      continue;
    }
    // a whole code point (a surrogate pair is one character), as UTF-8 bytes
    const codePoint = path.codePointAt(i)!;
    const whole = codePoint > 0xffff ? path.slice(i, i + 2) : char;
    if (whole.length === 2) i += 1;
    for (const byte of Buffer.from(whole, 'utf8')) {
      out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return out;
}

/** Characters kept as they are: unreserved, sub-delims, `:`, `@`, `/` (RFC 3986 3.3). */
const PATH_CHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;
/** A path already canonical because it has nothing to encode and no escape (the usual case). */
const CANONICAL_AS_IT_IS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const HEX_PAIR = /^[0-9A-Fa-f]{2}$/;
