import { canonicalPath } from '@wayfarer/service-kit';

/**
 * One canonical form for every request path, computed once before routing (Fastify's
 * `rewriteUrl`), so the proxy table, the rate limits, the body caps, the access rules and the
 * path sent upstream all see the same path: `/api/%6cogin`, `/api//login`, `/api/./login` and
 * `/api/login/` are `/api/login` everywhere, and can never route differently from it.
 *
 * - the path takes service-kit's canonical form (`canonicalPath`): percent-encoded unreserved
 *   characters (RFC 3986 2.3: letters, digits, `-._~`) are decoded, any other encoding is kept
 *   with upper-case hex (`%c3%a9` -> `%C3%A9`), and a character URL parsers disagree on is
 *   encoded (`{x}` -> `%7Bx%7D`, `|`, `^`, `` ` ``, `"`, `<`, `>`, `[`, `]`, `#`, non-ASCII):
 *   the path forwarded is then the one every parser on the way leaves as it is, and the
 *   identity proof binds the same form on both sides;
 * - a `\` (encoded or not), an encoded `/`, a control character (NUL included, encoded or not)
 *   or a malformed `%` escape is refused (400): no route of ours takes one, and each means
 *   something different to different parsers (a URL parser reads `\` as `/`);
 * - `//` collapses to `/`; `.` segments are removed and `..` segments resolved (RFC 3986 5.2.4),
 *   a `..` above the root is refused;
 * - a trailing `/` is kept (`/socket.io/` is a path of its own); the proxy table matches
 *   `/api/login/` as `/api/login` and below, so it has login's limits all the same;
 * - the query string is left as it is. Case is kept: paths are case-sensitive (`/API/LOGIN` is
 *   not a route and gets 404), and `;` has no special meaning (`/api/login;x` is not a route).
 */
export type NormalisedPath = { ok: true; url: string } | { ok: false; message: string };

/** A path with nothing to decode, encode or resolve (the usual case): canonical as it is. */
const PLAIN_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** A `%` that starts no escape. */
const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})/;
/** Escapes refused once canonical: a slash or backslash, a control character (NUL included). */
const REFUSED_ESCAPE = /%(?:2F|5C|[01][0-9A-F]|7F)/;

export function normaliseRequestUrl(rawUrl: string): NormalisedPath {
  const queryAt = rawUrl.indexOf('?');
  const rawPath = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = queryAt === -1 ? '' : rawUrl.slice(queryAt);
  if (!rawPath.startsWith('/')) {
    return { ok: false, message: 'The request path must start with "/".' };
  }
  if (PLAIN_PATH.test(rawPath) && !rawPath.includes('//') && !rawPath.includes('/.')) {
    return { ok: true, url: rawUrl };
  }
  if (rawPath.includes('\\')) {
    return { ok: false, message: 'The request path has a backslash.' };
  }
  if (MALFORMED_ESCAPE.test(rawPath)) {
    return { ok: false, message: 'The request path has a malformed percent-encoding.' };
  }
  // unreserved escapes decoded (`%2E` is `.`, resolved below), the rest encoded: see service-kit
  const canonical = canonicalPath(rawPath);
  const refused = REFUSED_ESCAPE.exec(canonical)?.[0];
  if (refused === '%2F' || refused === '%5C') {
    return { ok: false, message: 'The request path has an encoded slash.' };
  }
  if (refused !== undefined) {
    return { ok: false, message: 'The request path has a control character.' };
  }

  const parts = canonical.split('/').slice(1);
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
