import fc from 'fast-check';
import { makePng } from '../browser';

/*
 * The values the fuzz suite puts in fields, ids, queries and headers: what a careless or hostile
 * client sends. Each arbitrary mixes fast-check's own strings and numbers (any code point, lone
 * surrogates, control characters and NUL) with known troublemakers (path traversal, operator
 * injection, impossible dates, huge and deep values).
 */

/** JSON text put in a body verbatim (deep nesting, numbers JSON.stringify cannot write). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify, except that a RawJson is written as its text. */
export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const TROUBLE = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\n',
  '\r\nSet-Cookie: x=1',
  '\u0007\u001b[31mred',
  '\u202eevil',
  '\ufeffbom',
  '\ud800',
  '\udfff\ud800',
  '💥🏳️‍🌈',
  'İıß\u0130ﬀ',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '%00',
  '${7*7}{{7*7}}',
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  '%_\\',
  '.*',
  '(a+)+$',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-0',
  '1e309',
  '0x10',
] as const;

/** Huge text: 1k to 300k characters of one (1 to 4 UTF-8 bytes) character. */
export const hugeString = fc
  .tuple(fc.constantFrom(1_000, 20_000, 300_000), fc.constantFrom('x', 'é', '€', '😀', '\u0000'))
  .map(([n, c]) => c.repeat(c.length === 2 ? n / 2 : n));

/** A C0 control character (NUL most often: fast-check leans to a range's ends) or DEL. */
const controlChar = fc.oneof(
  { weight: 2, arbitrary: fc.constant('\u0000') },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constant('\u007f') },
);

/** Any short string, the troublemakers, text with control characters in it, huge text. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 4, arbitrary: fc.constantFrom(...TROUBLE) },
  {
    // plain text with a control character inside: what a validator that only looks at the
    // first characters, or a store that cannot keep NUL, trips on
    weight: 5,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }), controlChar, fc.string({ maxLength: 8 }))
      .map(([a, c, b]) => `Place ${a}${c}${b}`),
  },
  {
    weight: 1,
    arbitrary: fc.string({ unit: controlChar, minLength: 1, maxLength: 10 }),
  },
  { weight: 1, arbitrary: hugeString },
);

/** Nested arrays or objects `depth` deep, as text (too deep for JSON.stringify in this process). */
export const deepJson = fc
  .tuple(fc.constantFrom(64, 1_000, 20_000, 100_000), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? new RawJson('['.repeat(depth) + ']'.repeat(depth))
      : new RawJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  );

/** Numbers, including those JSON.stringify cannot write (as raw text). */
export const nastyNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e308, -1e308, 2 ** 53 + 1, 5e-324, 91, -181, 90.0000001),
  fc
    .constantFrom('1e999', '-1e999', '123456789012345678901234567890', '1E400')
    .map((t) => new RawJson(t)),
);

/** MongoDB and prototype troublemakers as values. */
const OPERATORS: unknown[] = [
  { $gt: '' },
  { $ne: null },
  { $where: 'sleep(1000)' },
  { $regex: '.*' },
  // (a `__proto__` key in an object literal would set its prototype, not add the key)
  new RawJson('{"__proto__":{"polluted":true}}'),
  { constructor: { prototype: { polluted: true } } },
];

/** A JSON value of any type, often not the one the field wants. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(fc.oneof(nastyString, fc.integer()), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(...OPERATORS) },
  { weight: 1, arbitrary: fc.dictionary(nastyString, nastyString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: deepJson },
);

/** Dates: impossible ones, odd ISO forms, edge years, and any text. */
export const nastyDate: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2025-02-29',
    '2024-02-29',
    '0000-01-01',
    '9999-12-31',
    '+275760-09-13',
    '-000001-01-01',
    '2026-4-1',
    '20260401',
    '2026-04-01T25:61:61Z',
    '2026-04-01T00:00:00.0000000001Z',
    '2026-04-01T00:00:00+99:99',
    '2026-04-01\u0000',
    '１２３４-０１-０１',
    'now',
    'Invalid Date',
  ),
  fc
    .date({ noInvalidDate: false })
    .map((d) => (Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString())),
  nastyString,
);

/** `text` percent-encoded by its UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser does). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Path segments and query values sent as they are: wrong encodings, traversal, raw bytes. */
const RAW_SEGMENTS = [
  '',
  '.',
  '..',
  '%2e%2e',
  '..%2f..%2fetc%2fpasswd',
  '..%252f',
  '%00',
  'a%00b',
  '%ff%fe',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AE%C0%AE',
  '*',
  '%2F',
  'a/b',
  '%3Bx',
  ';jsessionid=1',
  '%20',
  'x'.repeat(5_000),
  '\u00e9',
] as const;

/** Text as its UTF-8 bytes on the wire (the raw request is written one byte per character). */
const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/**
 * Characters and escapes URL parsers disagree on, put raw into a route's path (`oddPath`):
 * Node's HTTP parser takes `{ } | ^ \` " < > [ ] #` as they are, the WHATWG URL parser
 * encodes some and reads `#` as a fragment and `\` as `/`, others decode escapes or refuse
 * them. Whatever arrives, the gateway forwards a path its service reads as the gateway signed
 * it, or answers itself: a signed-in request is never answered 401.
 */
export const PATH_DISAGREEMENTS = [
  '{',
  '}',
  '{}',
  '{x}',
  '|',
  '\\',
  '^',
  '`',
  '"',
  '<',
  '>',
  '[',
  ']',
  '#',
  '#x',
  ' ',
  '%',
  '%z',
  '%zz',
  '%4',
  '%2F',
  '%2f',
  '%5C',
  '%7B',
  '%7b%7d',
  '%25',
  '%2525',
  '%00',
  '%0A',
  '%7F',
  '..',
  '%2e%2e',
  '.',
  '//',
  ';',
  ';x=1',
  '@',
  ':',
  "'",
  '$',
  '!',
  '*',
  '~',
  '+',
  '%20',
  '%C3%A9',
  '%E9',
  '%FF%FE',
  '%C0%AE',
  '\u00e9',
  utf8Bytes('é'),
  utf8Bytes('日本'),
  utf8Bytes('😀'),
  '\u0001',
  '\u007f',
] as const;

/**
 * Odd text put into a path: one or two of PATH_DISAGREEMENTS, at a position past `/api/`
 * (`at`, taken modulo the room there is: in the prefix the gateway routes on, or in the
 * service's part).
 */
export const oddPath = fc.record({
  text: fc
    .array(fc.constantFrom(...PATH_DISAGREEMENTS), { minLength: 1, maxLength: 2 })
    .map((parts) => parts.join('')),
  at: fc.nat(),
});

/** `path` with `odd.text` inserted past its `/api/` (see `oddPath`). */
export function withOddPath(path: string, odd: { text: string; at: number }): string {
  const from = Math.min('/api/'.length, path.length);
  const at = from + (odd.at % (path.length - from + 1));
  return `${path.slice(0, at)}${odd.text}${path.slice(at)}`;
}

/**
 * An id in a path: one of `known` (real ids: the caller's, another user's), ids of the right
 * shape that exist nowhere, and anything else (sent percent-encoded, or raw).
 */
export function idSegment(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    ...(known.length ? [{ weight: 3, arbitrary: fc.constantFrom(...known) }] : []),
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{24}$/) },
    { weight: 3, arbitrary: nastyString.filter((s) => s.length < 3_000).map(percentEncode) },
    { weight: 3, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  );
}

/** A query string (without `?`): the route's names and others, repeated, empty, wrongly encoded. */
export function queryString(names: readonly string[]): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...(names.length ? names : ['x'])) },
    { weight: 1, arbitrary: fc.constant('x') },
    { weight: 1, arbitrary: nastyString.filter((s) => s.length < 200).map(percentEncode) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...names.map((n) => `${n}[]`), '__proto__[x]', 'a[b][c]'),
    },
  );
  const value = fc.oneof(
    { weight: 3, arbitrary: nastyString.filter((s) => s.length < 20_000).map(percentEncode) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    { weight: 1, arbitrary: fc.integer().map(String) },
  );
  const pair = fc.oneof(
    { weight: 5, arbitrary: fc.tuple(name, value).map(([n, v]) => `${n}=${v}`) },
    { weight: 1, arbitrary: fc.constantFrom('', '=', '&', '&&&', '==', '%') },
    { weight: 1, arbitrary: name },
  );
  // mostly one of the route's parameters with a bad value (it reaches the route's own checks);
  // else a mess of pairs (duplicates, brackets, empty ones)
  const focused = fc
    .tuple(fc.constantFrom(...(names.length ? names : ['x'])), value)
    .map(([n, v]) => `${n}=${v}`);
  return fc.oneof(
    { weight: 3, arbitrary: focused },
    { weight: 2, arbitrary: fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.join('&')) },
  );
}

/** A real 8 px PNG: what a valid photo or picture is. */
export const SMALL_PNG = makePng(8);

/** A PNG whose header claims 100000 x 100000 pixels (a decompression bomb's shape). */
export const HUGE_DIMENSIONS_PNG = (() => {
  const png = Buffer.from(SMALL_PNG);
  png.writeUInt32BE(100_000, 16);
  png.writeUInt32BE(100_000, 20);
  return png;
})();

/** File contents: a valid image now and then, mostly not. */
export const fileBytes: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(SMALL_PNG) },
  { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
  { weight: 1, arbitrary: fc.constant(SMALL_PNG.subarray(0, 40)) },
  { weight: 1, arbitrary: fc.constant(HUGE_DIMENSIONS_PNG) },
  {
    weight: 1,
    arbitrary: fc.constant(Buffer.from('GIF89a\u0001\u0000\u0001\u0000junk', 'latin1')),
  },
  {
    weight: 1,
    arbitrary: fc.constant(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    ),
  },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)) },
);

/** Content-Type values: right, wrong, malformed, with odd parameters. */
export const nastyContentType: fc.Arbitrary<string> = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/vnd.api+json',
  'text/plain',
  'text/html; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=abc',
  'multipart/mixed; boundary=abc',
  'application/xml',
  'application/octet-stream',
  'image/png',
  '',
  ';;;',
  '*/*',
  `application/${'x'.repeat(2_000)}`,
);

/** Headers added to some requests: spoofed identity, bad keys, odd encodings and origins. */
export function noiseHeaders(victimUserId: string): fc.Arbitrary<[string, string][]> {
  return fc.subarray(
    [
      ['X-User-Id', victimUserId],
      ['X-Identity-Proof', 'v1.0.forged'],
      ['X-Client-Ip', '10.0.0.1'],
      ['X-Forwarded-For', '1.2.3.4, 5.6.7.8'],
      ['Idempotency-Key', 'fuzz-key-1'],
      ['Idempotency-Key', ' '],
      ['Accept-Encoding', 'br;q=0, gzip;q=1, *;q=0, identity;q=0'],
      ['Accept', 'text/html;q=0'],
      ['Content-Encoding', 'gzip'],
      ['Range', 'bytes=0-1,5-6,-1'],
      ['If-None-Match', '*'],
      ['Expect', '100-continue'],
      ['X-HTTP-Method-Override', 'DELETE'],
      ['Origin', 'null'],
      ['Cookie', 'wayfarer_session=forged.token.value'],
    ] as [string, string][],
    { maxLength: 3 },
  );
}
