/**
 * One canonical form for every request path, computed once before routing (Fastify's
 * `rewriteUrl`), so the proxy table, the rate limits, the body caps, the access rules and the
 * path sent upstream all see the same path: `/api/%6cogin`, `/api//login`, `/api/./login` and
 * `/api/login/` are `/api/login` everywhere, and can never route differently from it.
 *
 * - percent-encoded unreserved characters (RFC 3986 2.3: letters, digits, `-._~`) are decoded;
 *   any other encoding is kept, with upper-case hex (`%c3%a9` -> `%C3%A9`);
 * - a `\` (encoded or not), an encoded `/`, an encoded control character (NUL included) or a
 *   malformed `%` escape is refused (400): no route of ours takes one, and each means something
 *   different to different parsers (a URL parser reads `\` as `/`);
 * - `//` collapses to `/`; `.` segments are removed and `..` segments resolved (RFC 3986 5.2.4),
 *   a `..` above the root is refused;
 * - a trailing `/` is kept (`/socket.io/` is a path of its own); the proxy table matches
 *   `/api/login/` as `/api/login` and below, so it has login's limits all the same;
 * - the query string is left as it is. Case is kept: paths are case-sensitive (`/API/LOGIN` is
 *   not a route and gets 404), and `;` has no special meaning (`/api/login;x` is not a route).
 */
export type NormalisedPath = { ok: true; url: string } | { ok: false; message: string };

const UNRESERVED = /[A-Za-z0-9\-._~]/;

export function normaliseRequestUrl(rawUrl: string): NormalisedPath {
  const queryAt = rawUrl.indexOf('?');
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = queryAt === -1 ? '' : rawUrl.slice(queryAt);
  if (!rawPath.startsWith('/')) {
    return { ok: false, message: 'The request path must start with "/".' };
  }
  if (rawPath.includes('\\')) {
    return { ok: false, message: 'The request path has a backslash.' };
  }
  // already canonical (the usual case): nothing encoded, no empty, `.` or `..` segment
  if (!rawPath.includes('%') && !rawPath.includes('//') && !rawPath.includes('/.')) {
    return { ok: true, url: rawUrl };
  }

  let decoded = '';
  for (let i = 0; i < rawPath.length; i++) {
    const char = rawPath[i]!;
    if (char !== '%') {
      decoded += char;
      continue;
    }
    const hex = rawPath.slice(i + 1, i + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) {
      return { ok: false, message: 'The request path has a malformed percent-encoding.' };
    }
    const code = parseInt(hex, 16);
    const decodedChar = String.fromCharCode(code);
    if (code < 0x20 || code === 0x7f) {
      return { ok: false, message: 'The request path has an encoded control character.' };
    }
    if (decodedChar === '/' || decodedChar === '\\') {
      return { ok: false, message: 'The request path has an encoded slash.' };
    }
    decoded += UNRESERVED.test(decodedChar) ? decodedChar : `%${hex.toUpperCase()}`;
    i += 2;
  }

  const parts = decoded.split('/').slice(1);
  const last = parts[parts.length - 1];
  const trailingSlash = last === '' || last === '.' || last === '..';
  const segments: string[] = [];
  for (const segment of parts) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) {
        return { ok: false, message: 'The request path goes above the root.' };
      }
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  const path = `/${segments.join('/')}${trailingSlash && segments.length > 0 ? '/' : ''}`;
  return { ok: true, url: `${path}${query}` };
}
