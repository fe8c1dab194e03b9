import fc from 'fast-check';
import {
  ChangePasswordBody,
  DeleteAccountBody,
  IDEMPOTENCY_KEY_HEADER,
  LoginBody,
} from '@wayfarer/contracts';
import { CHUNK_FAULTS, type Framing, type RawRequest } from './raw-http';
import {
  anyJson,
  deepJson,
  fileBytes,
  idSegment,
  nastyContentType,
  nastyDate,
  nastyNumber,
  nastyString,
  noiseHeaders,
  oddPath,
  queryString,
  SMALL_PNG,
  toJson,
  withOddPath,
} from './values';
import type { Part, World } from './world';

/*
 * Every `/api` route of the product, with its methods and shapes as the services define them,
 * and how to fuzz it: path parameters, query names, a JSON or multipart body built from a valid
 * one and then broken, headers, and the framing of the body on the wire.
 */

export interface FuzzRoute {
  /** `METHOD /api/path/:param`, as the service declares it. */
  name: string;
  /** The prefix of the gateway's table (`PROXY_ROUTES`) it is under. */
  prefix: string;
  /** The caller's parts a refused request must leave as they were (read after each refusal). */
  watch: readonly Part[];
  /** Whose session is sent: the caller's, or the one the logout route may end. */
  session?: 'caller' | 'leaver';
  request: (world: World) => fc.Arbitrary<RawRequest>;
}

/** Marks a key left out of a JSON body or a part left out of a form. */
const ABSENT = Symbol('absent');

interface Body {
  bytes: Buffer;
  contentType?: string;
}

/** A field's bad value: one of its own kind (`own`), anything, or nothing. */
function broken(own: fc.Arbitrary<unknown> = anyJson): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: own },
    { weight: 2, arbitrary: anyJson },
    { weight: 1, arbitrary: fc.constant(ABSENT) },
  );
}

/**
 * Which of `keys` are broken: mostly one or two (the others valid, so a request gets past the
 * first check and reaches the deeper ones), now and then each on its own chance.
 */
function brokenKeys(keys: readonly string[]): fc.Arbitrary<readonly string[]> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.shuffledSubarray([...keys], {
        minLength: 1,
        maxLength: Math.min(2, keys.length),
      }),
    },
    { weight: 1, arbitrary: fc.subarray([...keys]) },
  );
}

const MALFORMED_JSON = [
  '',
  '{',
  '{"a":1,}',
  "{'a':1}",
  'null',
  '[]',
  '"text"',
  '\ufeff{}',
  '{"a":1}{"b":2}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '\u0000',
] as const;

/**
 * A JSON body: the valid object with some fields broken (`fields`: each field's own kind of
 * bad value) and extra keys, or a body that is not that object at all.
 */
function jsonBody(
  valid: Record<string, unknown>,
  fields: Record<string, fc.Arbitrary<unknown>> = {},
): fc.Arbitrary<Body> {
  const keys = Object.keys(valid);
  const object = fc
    .tuple(
      brokenKeys(keys),
      fc.record(Object.fromEntries(keys.map((k) => [k, broken(fields[k])]))),
      fc.dictionary(fc.constantFrom('ownerId', 'userId', '_id', 'isVisited', '$where'), anyJson, {
        maxKeys: 2,
      }),
    )
    .map(([chosen, bad, extra]) =>
      toJson({
        ...Object.fromEntries(
          keys
            .map((k) => [k, chosen.includes(k) ? bad[k] : valid[k]] as const)
            .filter(([, v]) => v !== ABSENT),
        ),
        ...extra,
      }),
    );
  const firstKey = Object.keys(valid)[0] ?? 'a';
  const text = fc.oneof(
    { weight: 8, arbitrary: object.map((t) => Buffer.from(t, 'utf8')) },
    { weight: 1, arbitrary: anyJson.map((v) => Buffer.from(toJson(v), 'utf8')) },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((t) => Buffer.from(t)) },
    { weight: 1, arbitrary: deepJson.map((r) => Buffer.from(r.text)) },
    {
      // invalid UTF-8 inside a string
      weight: 1,
      arbitrary: fc.constant(
        Buffer.concat([
          Buffer.from(`{"${firstKey}":"`),
          Buffer.from([0xff, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
          Buffer.from('"}'),
        ]),
      ),
    },
    {
      // a duplicate key: the second one wins in JSON.parse
      weight: 1,
      arbitrary: fc.constant(
        Buffer.from(`{"${firstKey}":${toJson(valid[firstKey])},"${firstKey}":{"$gt":""}}`),
      ),
    },
  );
  return text.map((bytes) => ({ bytes, contentType: 'application/json' }));
}

/** One part of a multipart form. */
interface Part0 {
  name: string;
  value: Buffer;
  filename?: string;
  contentType?: string;
}

const MULTIPART_FAULTS = [
  'none',
  'none',
  'none',
  'none',
  'boundary-mismatch',
  'no-boundary',
  'no-closing',
  'truncated',
  'lf-only',
  'no-disposition',
  'preamble',
  'many-parts',
  'long-header',
] as const;
type MultipartFault = (typeof MULTIPART_FAULTS)[number];

function multipartBytes(parts: Part0[], boundary: string, fault: MultipartFault): Body {
  const nl = fault === 'lf-only' ? '\n' : '\r\n';
  const chunks: Buffer[] = [];
  if (fault === 'preamble') chunks.push(Buffer.from(`junk before${nl}--not-it${nl}`));
  const all: Part0[] =
    fault === 'many-parts'
      ? [
          ...parts,
          ...Array.from({ length: 3_000 }, (_, i) => ({ name: `f${i}`, value: Buffer.from('1') })),
        ]
      : parts;
  for (const [i, p] of all.entries()) {
    const headers: string[] = [];
    if (!(fault === 'no-disposition' && i === 0)) {
      headers.push(
        `Content-Disposition: form-data; name="${p.name}"` +
          (p.filename !== undefined ? `; filename="${p.filename}"` : ''),
      );
    }
    if (p.contentType !== undefined) headers.push(`Content-Type: ${p.contentType}`);
    if (fault === 'long-header' && i === 0) headers.push(`X-Pad: ${'p'.repeat(100_000)}`);
    chunks.push(
      Buffer.from(`--${boundary}${nl}${headers.join(nl)}${nl}${nl}`, 'utf8'),
      p.value,
      Buffer.from(nl),
    );
  }
  if (fault !== 'no-closing' && fault !== 'truncated')
    chunks.push(Buffer.from(`--${boundary}--${nl}`));
  let bytes = Buffer.concat(chunks);
  if (fault === 'truncated') bytes = bytes.subarray(0, Math.floor(bytes.length / 2));
  const declared =
    fault === 'boundary-mismatch' ? `${boundary}x` : fault === 'no-boundary' ? null : boundary;
  return {
    bytes,
    contentType:
      declared === null ? 'multipart/form-data' : `multipart/form-data; boundary=${declared}`,
  };
}

/** Field names that are not the form's: out-of-range, negative, prototype, bracket soup. */
const BAD_INDEXES = [
  '-1',
  '99999999999999999999',
  '1e3',
  '__proto__',
  'constructor',
  '',
  ' 0',
  '0x1',
  '٣',
  '20',
  '07',
];

/**
 * A multipart body: the valid form with some parts broken (value, name, file), some left out,
 * some repeated, extra ones, and the framing faults of MULTIPART_FAULTS.
 */
function multipartBody(
  valid: Part0[],
  values: Record<string, fc.Arbitrary<Buffer>>,
  names: fc.Arbitrary<string>,
): fc.Arbitrary<Body> {
  const part = (p: Part0): fc.Arbitrary<Part0[]> =>
    fc.oneof(
      {
        weight: 4,
        arbitrary: (values[p.name] ?? fileBytes).map((value): Part0[] => [{ ...p, value }]),
      },
      { weight: 1, arbitrary: names.map((name): Part0[] => [{ ...p, name }]) },
      { weight: 1, arbitrary: fc.constant<Part0[]>([]) },
      { weight: 1, arbitrary: fc.constant<Part0[]>([p, p]) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            nastyString.filter((s) => s.length < 500),
            fc.constantFrom(undefined, '', 'image/png', 'text/html', 'x'),
          )
          .map(([filename, contentType]): Part0[] => [{ ...p, filename, contentType }]),
      },
    );
  const extra = fc.array(
    fc.record({
      name: names,
      value: fc.oneof(
        nastyString.map((s) => Buffer.from(s)),
        fileBytes,
      ),
      filename: fc.option(fc.constantFrom('x.png', '../../etc/passwd', 'a\u0000.png'), {
        nil: undefined,
      }),
    }),
    { maxLength: 2 },
  );
  return fc
    .tuple(
      brokenKeys(valid.map((p) => p.name)),
      fc.tuple(...valid.map(part)),
      extra,
      fc.constantFrom('fuzzBoundary7MA4YWxk', 'x', '-'.repeat(70), 'b'.repeat(75), 'a b', 'é'),
      fc.constantFrom(...MULTIPART_FAULTS),
    )
    .map(([chosen, bad, more, boundary, fault]) =>
      multipartBytes(
        [...valid.flatMap((p, i) => (chosen.includes(p.name) ? bad[i]! : [p])), ...more],
        boundary,
        fault,
      ),
    );
}

const text = (s: string) => Buffer.from(s, 'utf8');

/**
 * Whether a JSON body passes `schema`: a login (or a password check) the service would go on
 * with, and count against its throttle when the password is wrong.
 */
function wellFormed(
  schema: { safeParse(v: unknown): { success: boolean } },
  bytes: Buffer,
): boolean {
  try {
    return schema.safeParse(JSON.parse(bytes.toString('utf8'))).success;
  } catch {
    return false;
  }
}
const asText = (a: fc.Arbitrary<unknown>) =>
  a.map((v) => text(typeof v === 'string' ? v : toJson(v)));

/** A body for a route that takes none: usually none, sometimes one anyway. */
const noBody: fc.Arbitrary<Body | null> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: anyJson.map((v) => ({ bytes: text(toJson(v)), contentType: 'application/json' })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => ({ bytes: Buffer.from(a) })),
  },
);

const FRAMINGS: readonly { weight: number; arbitrary: fc.Arbitrary<Framing> }[] = [
  { weight: 5, arbitrary: fc.constant('chunked') },
  { weight: 1, arbitrary: fc.constant('short') },
  { weight: 1, arbitrary: fc.constant('long') },
  { weight: 1, arbitrary: fc.constant('both') },
  { weight: 2, arbitrary: fc.constant('bad-chunks') },
];

/**
 * Methods a route is sometimes called with instead of its own. Not DELETE: on a path of the
 * caller's own trip or place it would be accepted and end the suite's set-up (the DELETE routes
 * are fuzzed as routes of their own).
 */
const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'] as const;

interface Shape {
  method: string;
  /** The path without the query. */
  path: fc.Arbitrary<string>;
  /** Query parameter names the route reads (any others are sent too). */
  query?: readonly string[];
  body?: fc.Arbitrary<Body | null>;
  /** A create that takes an Idempotency-Key: one (new each time) is sent on half the requests. */
  idempotent?: boolean;
}

/**
 * The request: the route's method (now and then another), its path, a query, the body framed
 * one way or another, the session cookie (now and then none), headers of the noise list and now
 * and then a wrong Content-Type.
 */
/** What else may be wrong with a request besides its path, query and body. */
const SECONDARY = ['method', 'query', 'noise', 'contentType', 'framing', 'session'] as const;
type Secondary = (typeof SECONDARY)[number];

/**
 * The request: the route's path (a quarter of the time with characters URL parsers disagree on
 * put into it: `oddPath`) and (when it has them) its query parameters and body, always
 * generated; besides, none, one or two of SECONDARY wrong (another method, extra query pairs,
 * headers of the noise list, a wrong Content-Type, another framing of the body, no session), so
 * that most requests get past the edge to the route's own checks, and a failure shrinks to
 * what it needs.
 */
function requestOf(
  world: World,
  session: 'caller' | 'leaver',
  shape: Shape,
): fc.Arbitrary<RawRequest> {
  const cookie = (session === 'caller' ? world.caller : world.leaver).header;
  const ownQuery = (shape.query?.length ?? 0) > 0;
  return fc
    .record({
      wrong: fc.oneof(
        { weight: 4, arbitrary: fc.constant<Secondary[]>([]) },
        {
          weight: 4,
          arbitrary: fc.shuffledSubarray([...SECONDARY], { minLength: 1, maxLength: 1 }),
        },
        {
          weight: 2,
          arbitrary: fc.shuffledSubarray([...SECONDARY], { minLength: 2, maxLength: 2 }),
        },
      ),
      method: fc.constantFrom(...OTHER_METHODS),
      path: shape.path,
      // now and then, characters URL parsers disagree on put into the path (values.ts)
      odd: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: oddPath }),
      query: queryString(shape.query ?? []),
      body: shape.body ?? noBody,
      framing: fc.oneof(...FRAMINGS),
      cut: fc.integer({ min: 1, max: 64 }),
      chunkFault: fc.constantFrom(...CHUNK_FAULTS),
      noise: noiseHeaders(world.friend.userId),
      contentType: nastyContentType,
      forged: fc.boolean(),
      key: shape.idempotent
        ? fc.option(fc.uuid(), { nil: undefined, freq: 2 })
        : fc.constant(undefined),
    })
    .map((r): RawRequest => {
      const wrong = (what: Secondary) => r.wrong.includes(what);
      const headers: [string, string][] = [];
      if (!wrong('session')) headers.push(['Cookie', cookie]);
      else if (r.forged) headers.push(['Cookie', 'wayfarer_session=forged.token.value']);
      const type = wrong('contentType') ? r.contentType : r.body?.contentType;
      if (r.body && type !== undefined) headers.push(['Content-Type', type]);
      if (r.key !== undefined) headers.push([IDEMPOTENCY_KEY_HEADER, `fuzz-${r.key}`]);
      if (wrong('noise')) headers.push(...r.noise);
      const query = ownQuery || wrong('query') ? r.query : undefined;
      const path = r.odd ? withOddPath(r.path, r.odd) : r.path;
      return {
        method: wrong('method') ? r.method : shape.method,
        target: query === undefined ? path : `${path}?${query}`,
        headers,
        body: r.body?.bytes ?? Buffer.alloc(0),
        framing: !r.body ? 'none' : wrong('framing') ? r.framing : 'length',
        cut: r.cut,
        chunkFault: r.chunkFault,
      };
    });
}

/** `/api/prefix/<segment>` (the segment as generated: encoded or raw). */
const under = (prefix: string, ids: fc.Arbitrary<string>) => ids.map((id) => `${prefix}/${id}`);

/** A route without parameters, with its query and body noise. */
const plain = (name: string, prefix: string, query: readonly string[] = []): FuzzRoute => {
  const [method = 'GET', path = prefix] = name.split(' ');
  return {
    name,
    prefix,
    watch: [],
    request: (w) => requestOf(w, 'caller', { method, path: fc.constant(path), query }),
  };
};

const latitudeText = fc
  .oneof(
    nastyNumber.map((n) => toJson(n)),
    nastyString,
  )
  .map(text);

/** The trip form's fields, as the trips service reads them. */
const TRIP_FORM: Part0[] = [
  { name: 'name', value: text('Fuzzed trip') },
  { name: 'startDate', value: text('2026-06-01') },
  { name: 'endDate', value: text('2026-06-05') },
  { name: 'destinations[0][name]', value: text('Fuzzville') },
  { name: 'destinations[0][startDate]', value: text('2026-06-01') },
  { name: 'destinations[0][endDate]', value: text('2026-06-05') },
  { name: 'destinations[0][latitude]', value: text('48.85') },
  { name: 'destinations[0][longitude]', value: text('2.35') },
  { name: 'destinations[0][story]', value: text('Fuzzed story') },
  { name: 'photos[0]', value: SMALL_PNG, filename: 'p.png', contentType: 'image/png' },
];
const dateText = nastyDate.map(text);
const TRIP_VALUES: Record<string, fc.Arbitrary<Buffer>> = {
  name: asText(nastyString),
  startDate: dateText,
  endDate: dateText,
  'destinations[0][name]': asText(nastyString),
  'destinations[0][startDate]': dateText,
  'destinations[0][endDate]': dateText,
  'destinations[0][latitude]': latitudeText,
  'destinations[0][longitude]': latitudeText,
  'destinations[0][story]': asText(nastyString),
  'photos[0]': fileBytes,
};
const tripFieldNames = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(...BAD_INDEXES),
      fc.constantFrom('name', 'latitude', 'startDate', '__proto__', 'constructor', '', 'name][x'),
    )
    .map(([i, k]) => `destinations[${i}][${k}]`),
  fc.constantFrom(...BAD_INDEXES).map((i) => `photos[${i}]`),
  fc.constantFrom(
    'photos',
    'photos[]',
    'destinations',
    'destinations[0]',
    '__proto__',
    'name[]',
    '',
  ),
  nastyString.filter((s) => s.length < 300 && !s.includes('"')),
);

const REGISTER_FORM = (email: string): Part0[] => [
  { name: 'name', value: text('Fuzz Person') },
  { name: 'email', value: text(email) },
  { name: 'password', value: text('a long password') },
  { name: 'profilePicture', value: SMALL_PNG, filename: 'me.png', contentType: 'image/png' },
];
/** `PATCH /api/userDetails`: a new name and/or picture (the registration form's fields). */
const PROFILE_FORM: Part0[] = [
  { name: 'name', value: text('Fuzz Caller') },
  { name: 'profilePicture', value: SMALL_PNG, filename: 'me.png', contentType: 'image/png' },
];
const PROFILE_VALUES: Record<string, fc.Arbitrary<Buffer>> = {
  name: asText(nastyString),
  profilePicture: fileBytes,
};
/** The import's one file, a small GPX when valid. */
const IMPORT_GPX = text(
  '<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">' +
    '<wpt lat="48.85" lon="2.35"><name>Fuzzville</name></wpt></gpx>',
);
const IMPORT_FORM: Part0[] = [
  { name: 'file', value: IMPORT_GPX, filename: 'trip.gpx', contentType: 'application/gpx+xml' },
];
const IMPORT_VALUES: Record<string, fc.Arbitrary<Buffer>> = {
  file: fc.oneof(
    fileBytes,
    nastyString.map((name) =>
      text(`<gpx><wpt lat="1" lon="1"><name>${name}</name><desc>${name}</desc></wpt></gpx>`),
    ),
    nastyString.map((name) =>
      text(
        `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,1]},"properties":{"name":${JSON.stringify(name)}}}]}`,
      ),
    ),
    fc.constant(text('<!DOCTYPE gpx [<!ENTITY a "aaaa">]><gpx>&a;</gpx>')),
    fc.constant(Buffer.from('PK\u0003\u0004 not really a zip')),
  ),
};
const REGISTER_VALUES: Record<string, fc.Arbitrary<Buffer>> = {
  name: asText(nastyString),
  email: asText(fc.oneof(nastyString, fc.emailAddress(), fc.constant('a@b'))),
  password: asText(nastyString),
  profilePicture: fileBytes,
};

/**
 * Every route of every service behind the gateway. Ids the generators pick among (`idSegment`)
 * are real ones where a refusal is expected (the friend's trip for DELETE /api/trips, the
 * friend for add-friend: already friends) and never ones whose acceptance would end the suite's
 * set-up (the caller's own trip for DELETE, the stranger's pending request for accept).
 */
export function fuzzRoutes(): FuzzRoute[] {
  return [
    // ------------------------------------------------------------------ auth
    {
      name: 'POST /api/register',
      prefix: '/api/register',
      watch: ['users'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: fc.constant('/api/register'),
          body: fc.oneof(
            {
              weight: 5,
              arbitrary: fc
                .uuid()
                .chain((id) =>
                  multipartBody(
                    REGISTER_FORM(`fuzz.${id}@example.com`),
                    REGISTER_VALUES,
                    nastyString,
                  ),
                ),
            },
            {
              weight: 1,
              arbitrary: jsonBody({
                name: 'Fuzz',
                email: 'fuzz@example.com',
                password: 'a long password',
              }),
            },
          ),
        }),
    },
    {
      name: 'POST /api/login',
      prefix: '/api/login',
      watch: ['users', 'session'],
      // never a well-formed email and password: a failed login of that shape counts against the
      // loopback address's login throttle, which later e2e tests sign in from
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: fc.constant('/api/login'),
          body: jsonBody(
            { email: 'fuzz@example.com', password: 'a long password' },
            { email: fc.oneof(anyJson, fc.constantFrom('', 'not-an-email', 'a@', '@b.c')) },
          ).filter((body) => !wellFormed(LoginBody, body.bytes)),
        }),
    },
    {
      name: 'POST /api/logout',
      prefix: '/api/logout',
      watch: ['session'],
      session: 'leaver',
      request: (w) => requestOf(w, 'leaver', { method: 'POST', path: fc.constant('/api/logout') }),
    },
    plain('GET /api/protected', '/api/protected'),
    plain('GET /api/userDetails', '/api/userDetails'),
    {
      name: 'PATCH /api/userDetails',
      prefix: '/api/userDetails',
      watch: ['user'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'PATCH',
          path: fc.constant('/api/userDetails'),
          body: fc.oneof(
            { weight: 5, arbitrary: multipartBody(PROFILE_FORM, PROFILE_VALUES, nastyString) },
            { weight: 1, arbitrary: jsonBody({ name: 'Fuzz Caller' }, { name: nastyString }) },
          ),
        }),
    },
    {
      name: 'POST /api/password',
      prefix: '/api/password',
      watch: ['session', 'users'],
      // never a well-formed body: a wrong current password counts against the loopback
      // address's login throttle, and the right one would change the caller's password
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: fc.constant('/api/password'),
          body: jsonBody(
            { currentPassword: 'a long password', newPassword: 'another long password' },
            { currentPassword: nastyString, newPassword: nastyString },
          ).filter((body) => !wellFormed(ChangePasswordBody, body.bytes)),
        }),
    },
    {
      name: 'DELETE /api/account',
      prefix: '/api/account',
      watch: ['session', 'users', 'myTrips', 'bucket', 'friends'],
      // never a well-formed body either: the right password would close the caller's account
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'DELETE',
          path: fc.constant('/api/account'),
          body: jsonBody({ password: 'a long password' }, { password: nastyString }).filter(
            (body) => !wellFormed(DeleteAccountBody, body.bytes),
          ),
        }),
    },
    {
      name: 'GET /api/avatars/:userId/:file',
      prefix: '/api/avatars',
      watch: [],
      request: (w) => {
        const [, , , user = '', file = ''] = w.ids.myAvatarPath.split('/');
        const seg = idSegment([user, w.friend.userId, file, 'x.png', 'avatar.webp']);
        return requestOf(w, 'caller', {
          method: 'GET',
          path: fc.oneof(
            fc.tuple(seg, seg).map(([a, b]) => `/api/avatars/${a}/${b}`),
            under('/api/avatars', seg),
          ),
        });
      },
    },
    // ------------------------------------------------------------------ trips
    plain('GET /api/mytrips', '/api/mytrips'),
    {
      name: 'GET /api/trips/:id',
      prefix: '/api/trips',
      watch: [],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'GET',
          path: under(
            '/api/trips',
            idSegment([w.ids.myTrip, w.ids.friendTrip, w.ids.myDestination]),
          ),
        }),
    },
    {
      name: 'DELETE /api/trips/:id',
      prefix: '/api/trips',
      watch: ['myTrips'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'DELETE',
          path: under(
            '/api/trips',
            idSegment([w.ids.friendTrip, w.ids.myDestination, w.ids.friendDestination]),
          ),
        }),
    },
    {
      name: 'POST /api/trips',
      prefix: '/api/trips',
      watch: ['myTrips'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: fc.constant('/api/trips'),
          idempotent: true,
          body: fc.oneof(
            { weight: 6, arbitrary: multipartBody(TRIP_FORM, TRIP_VALUES, tripFieldNames) },
            {
              weight: 1,
              arbitrary: jsonBody({
                name: 'Fuzzed trip',
                startDate: '2026-06-01',
                endDate: '2026-06-05',
                destinations: [],
              }),
            },
          ),
        }),
    },
    {
      name: 'GET /api/photos/:tripId/:photoId',
      prefix: '/api/photos',
      watch: [],
      request: (w) => {
        const [, , , myTrip = '', myPhoto = ''] = w.ids.myPhotoPath.split('/');
        const [, , , theirTrip = '', theirPhoto = ''] = w.ids.friendPhotoPath.split('/');
        const seg = idSegment([myTrip, myPhoto, theirTrip, theirPhoto]);
        return requestOf(w, 'caller', {
          method: 'GET',
          path: fc.oneof(
            fc.tuple(seg, seg).map(([a, b]) => `/api/photos/${a}/${b}`),
            fc.constantFrom(
              w.ids.friendPhotoPath,
              `${w.ids.myPhotoPath}/x`,
              `${w.ids.myPhotoPath}%00`,
            ),
          ),
        });
      },
    },
    // ------------------------------------------------------------------ share links
    // (the reads first: a valid POST replaces the world's link)
    {
      name: 'GET /api/shared/:token',
      prefix: '/api/shared',
      watch: [],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'GET',
          path: under(
            '/api/shared',
            idSegment([w.ids.myShareToken, w.ids.friendShareToken, w.ids.myTrip]),
          ),
        }),
    },
    {
      name: 'GET /api/shared/:token/photos/:photoId',
      prefix: '/api/shared',
      watch: [],
      request: (w) => {
        const [, , , , myPhoto = ''] = w.ids.myPhotoPath.split('?')[0]!.split('/');
        const [, , , , theirPhoto = ''] = w.ids.friendPhotoPath.split('?')[0]!.split('/');
        const token = idSegment([w.ids.myShareToken, w.ids.friendShareToken]);
        const photo = idSegment([myPhoto, theirPhoto]);
        return requestOf(w, 'caller', {
          method: 'GET',
          path: fc.tuple(token, photo).map(([t, p]) => `/api/shared/${t}/photos/${p}`),
        });
      },
    },
    {
      name: 'POST /api/trips/:id/share',
      prefix: '/api/trips',
      watch: ['myTrips'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: idSegment([w.ids.myTrip, w.ids.friendTrip, w.ids.myDestination]).map(
            (id) => `/api/trips/${id}/share`,
          ),
          body: jsonBody(
            { includeStories: true, allowIndexing: false, expiresAt: '2027-01-01T00:00:00.000Z' },
            { expiresAt: nastyDate },
          ),
        }),
    },
    ...(['GET', 'DELETE'] as const).map((method): FuzzRoute => ({
      name: `${method} /api/trips/:id/share`,
      prefix: '/api/trips',
      watch: ['myTrips'],
      request: (w) =>
        requestOf(w, 'caller', {
          method,
          path: idSegment([w.ids.myTrip, w.ids.friendTrip, w.ids.myDestination]).map(
            (id) => `/api/trips/${id}/share`,
          ),
        }),
    })),
    {
      // a trip's file; the format from the four, a near miss, or any text
      name: 'GET /api/trips/:id/export.:format',
      prefix: '/api/trips',
      watch: [],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'GET',
          path: fc
            .tuple(
              idSegment([w.ids.myTrip, w.ids.friendTrip, w.ids.myDestination]),
              fc.oneof(
                fc.constantFrom('gpx', 'kml', 'geojson', 'ics', 'GPX', 'pdf', 'gpx.zip', ''),
                fc.string({ maxLength: 12 }).map(encodeURIComponent),
              ),
            )
            .map(([id, format]) => `/api/trips/${id}/export.${format}`),
        }),
    },
    // ------------------------------------------------------------------ bucketlist
    plain('GET /api/bucketlist', '/api/bucketlist'),
    {
      name: 'POST /api/bucketlist',
      prefix: '/api/bucketlist',
      watch: ['bucket'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: fc.constant('/api/bucketlist'),
          idempotent: true,
          body: jsonBody(
            {
              place: 'Fuzz Atoll',
              latitude: -20.5,
              longitude: -150.25,
              isVisited: false,
              description: 'x',
            },
            {
              place: nastyString,
              latitude: nastyNumber,
              longitude: nastyNumber,
              description: nastyString,
            },
          ),
        }),
    },
    {
      name: 'DELETE /api/bucketlist/:id',
      prefix: '/api/bucketlist',
      watch: ['bucket'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'DELETE',
          path: under('/api/bucketlist', idSegment([w.ids.friendItem, w.ids.myTrip])),
        }),
    },
    {
      name: 'GET /api/itinerary/:bucketListId',
      prefix: '/api/itinerary',
      watch: [],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'GET',
          path: under('/api/itinerary', idSegment([w.ids.myItem, w.ids.friendItem])),
        }),
    },
    {
      name: 'POST /api/itinerary',
      prefix: '/api/itinerary',
      watch: ['itinerary', 'bucket'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: fc.constant('/api/itinerary'),
          body: jsonBody(
            { bucketListId: w.ids.myItem, itinerary: ['Swim'] },
            {
              bucketListId: fc.oneof(fc.constant(w.ids.friendItem), fc.uuid(), nastyString),
              itinerary: fc.oneof(
                fc.array(nastyString, { maxLength: 4 }),
                fc.constant(Array.from({ length: 101 }, () => 'x')),
                fc.constant(['x'.repeat(501)]),
                anyJson,
              ),
            },
          ),
        }),
    },
    // ------------------------------------------------------------------ social
    plain('GET /api/friends', '/api/friends', ['limit', 'cursor']),
    {
      name: 'GET /api/friends/:friendId/destinations/:destinationId',
      prefix: '/api/friends',
      watch: [],
      request: (w) => {
        const seg = idSegment([
          w.friend.userId,
          w.stranger.userId,
          w.caller.userId,
          w.ids.friendDestination,
          w.ids.myDestination,
        ]);
        return requestOf(w, 'caller', {
          method: 'GET',
          path: fc.tuple(seg, seg).map(([a, b]) => `/api/friends/${a}/destinations/${b}`),
        });
      },
    },
    {
      name: 'DELETE /api/friends/:id',
      prefix: '/api/friends',
      watch: ['friends', 'requests'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'DELETE',
          path: under('/api/friends', idSegment([w.stranger.userId, w.caller.userId])),
        }),
    },
    plain('GET /api/friendRequests', '/api/friendRequests'),
    ...(['acceptFriend', 'declineFriend'] as const).map((verb): FuzzRoute => ({
      name: `POST /api/${verb}/:id`,
      prefix: `/api/${verb}`,
      watch: ['friends', 'requests'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: under(`/api/${verb}`, idSegment([w.friend.userId, w.caller.userId])),
        }),
    })),
    plain('GET /api/getUserFriends', '/api/getUserFriends'),
    plain('GET /api/search-users', '/api/search-users', ['query']),
    {
      name: 'POST /api/add-friend/:id',
      prefix: '/api/add-friend',
      watch: ['friends', 'requests'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: under('/api/add-friend', idSegment([w.friend.userId, w.caller.userId])),
          idempotent: true,
        }),
    },
    // ------------------------------------------------------------------ journal
    {
      name: 'GET /api/journal/:destinationId',
      prefix: '/api/journal',
      watch: [],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'GET',
          path: under(
            '/api/journal',
            idSegment([w.ids.myDestination, w.ids.friendDestination, w.ids.myTrip]),
          ),
        }),
    },
    {
      name: 'POST /api/journal',
      prefix: '/api/journal',
      watch: ['journal'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: fc.constant('/api/journal'),
          idempotent: true,
          body: jsonBody(
            {
              destinationId: w.ids.myDestination,
              content: 'Fuzzed journal',
              date: '2026-06-01T10:00:00.000Z',
            },
            {
              destinationId: fc.oneof(
                fc.constant(w.ids.friendDestination),
                fc.constant(w.ids.myTrip),
                nastyString,
              ),
              content: nastyString,
              date: nastyDate,
            },
          ),
        }),
    },
    // ------------------------------------------------------------------ chat
    {
      name: 'GET /api/conversation/:roomId',
      prefix: '/api/conversation',
      watch: [],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'GET',
          path: under(
            '/api/conversation',
            idSegment([
              w.ids.room,
              w.ids.strangerRoom,
              `${w.caller.userId}_${w.caller.userId}`,
              w.ids.room.split('_').reverse().join('_'),
              `${w.ids.room}_${w.caller.userId}`,
            ]),
          ),
          query: ['before', 'limit'],
        }),
    },
    // ------------------------------------------------------------------ chat's inbox
    plain('GET /api/conversations', '/api/conversations'),
    {
      name: 'POST /api/conversations/:roomId/read',
      prefix: '/api/conversations',
      watch: [],
      request: (w) => {
        const room = idSegment([w.ids.room, w.ids.strangerRoom, `${w.ids.room}_x`, 'x_y']);
        return requestOf(w, 'caller', {
          method: 'POST',
          path: fc.oneof(
            room.map((r) => `/api/conversations/${r}/read`),
            under('/api/conversations', room),
          ),
        });
      },
    },
    // ------------------------------------------------------------------ places
    plain('GET /api/places', '/api/places', ['query', 'limit']),
    // ------------------------------------------------------------------ feed, bell
    plain('GET /api/feed', '/api/feed', ['cursor', 'limit']),
    // ------------------------------------------------------------------ statistics
    plain('GET /api/stats', '/api/stats'),
    // the caller's whole account as a ZIP
    plain('GET /api/export', '/api/export'),
    // trips from a GPX, KML, GeoJSON or ZIP file
    {
      name: 'POST /api/import',
      prefix: '/api/import',
      watch: ['myTrips'],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: fc.constant('/api/import'),
          body: multipartBody(
            IMPORT_FORM,
            IMPORT_VALUES,
            fc.constantFrom('file', 'files', 'photos[0]', ''),
          ),
        }),
    },
    {
      name: 'GET /api/stats/friends/:friendId',
      prefix: '/api/stats',
      watch: [],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'GET',
          path: under(
            '/api/stats/friends',
            idSegment([w.friend.userId, w.stranger.userId, w.caller.userId]),
          ),
        }),
    },
    plain('GET /api/notifications', '/api/notifications', ['cursor', 'limit']),
    {
      name: 'POST /api/notifications/read',
      prefix: '/api/notifications',
      watch: [],
      request: (w) =>
        requestOf(w, 'caller', {
          method: 'POST',
          path: fc.constant('/api/notifications/read'),
          body: fc.oneof(
            jsonBody(
              { ids: ['00000000-0000-4000-8000-000000000000'] },
              { ids: fc.array(nastyString, { maxLength: 3 }) },
            ),
            jsonBody({ all: true }, { all: anyJson }),
          ),
        }),
    },
  ];
}
