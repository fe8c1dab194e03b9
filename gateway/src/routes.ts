import { BodyLimits, ImportLimits, SharePaths } from '@wayfarer/contracts';

/**
 * The proxy table: which service answers which `/api` path, and whether a session is needed.
 * Pure data plus a lookup, so it is unit tested and read in one place.
 */
export const SERVICES = [
  'auth',
  'trips',
  'bucketlist',
  'social',
  'journal',
  'chat',
  'places',
  'notifications',
] as const;
export type ServiceName = (typeof SERVICES)[number];

/** 'public': no session needed; 'optional': identity forwarded when valid; 'required': 401 without. */
export type Access = 'public' | 'optional' | 'required';

export interface ProxyRoute {
  /** Path prefix; matches the prefix itself and anything below it (`/prefix/...`). */
  prefix: string;
  service: ServiceName;
  access: Access;
  /** Largest request body accepted at the edge (default DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /**
   * A per-address limit of its own instead of the `/api` one: 'auth', the stricter login and
   * register limit (AUTH_RATE_LIMIT_PER_MINUTE); 'shared', share links' public reads and pages
   * (SHARED_RATE_LIMIT_PER_MINUTE).
   */
  rateLimit?: RateLimitKind;
  /** How long the service may take to answer (default the gateway's `UPSTREAM_TIMEOUT_MS`). */
  timeoutMs?: number;
}

/** The per-address limits besides the `/api` one (each its own count per address). */
export type RateLimitKind = 'auth' | 'shared';

/**
 * Bodies are streamed to the services, which enforce their own limits; the gateway refuses a
 * declared Content-Length above the route's cap up front, and counts a chunked body as it
 * streams (`body-limit.ts`), so a huge upload is answered with one clean 413 instead of being
 * cut off mid-stream by the service. The caps come from contracts, derived from the forms'
 * limits: the largest legal request of each route fits exactly.
 */
export const DEFAULT_MAX_BODY_BYTES = BodyLimits.default;

export const PROXY_ROUTES: readonly ProxyRoute[] = [
  {
    prefix: '/api/register',
    service: 'auth',
    access: 'public',
    maxBodyBytes: BodyLimits.register,
    rateLimit: 'auth',
  },
  {
    prefix: '/api/login',
    service: 'auth',
    access: 'public',
    maxBodyBytes: BodyLimits.login,
    rateLimit: 'auth',
  },
  { prefix: '/api/logout', service: 'auth', access: 'optional' },
  { prefix: '/api/protected', service: 'auth', access: 'required' },
  // GET, and PATCH (multipart: name and/or profilePicture, the registration form's limits)
  {
    prefix: '/api/userDetails',
    service: 'auth',
    access: 'required',
    maxBodyBytes: BodyLimits.register,
  },
  // both check a password (a wrong one counts toward auth's login throttle): login's rate limit
  {
    prefix: '/api/password',
    service: 'auth',
    access: 'required',
    maxBodyBytes: BodyLimits.password,
    rateLimit: 'auth',
  },
  {
    prefix: '/api/account',
    service: 'auth',
    access: 'required',
    maxBodyBytes: BodyLimits.account,
    rateLimit: 'auth',
  },
  { prefix: '/api/avatars', service: 'auth', access: 'required' },

  { prefix: '/api/mytrips', service: 'trips', access: 'required' },
  { prefix: '/api/trips', service: 'trips', access: 'required', maxBodyBytes: BodyLimits.trip },
  // one file of a GPX, KML, GeoJSON or ZIP to import trips from
  {
    prefix: '/api/import',
    service: 'trips',
    access: 'required',
    maxBodyBytes: BodyLimits.import,
    timeoutMs: ImportLimits.answerTimeoutMs,
  },
  { prefix: '/api/photos', service: 'trips', access: 'required' },
  // the whole account as one ZIP, streamed (forward.ts: an answer without a length
  // goes to the client as it comes; the upstream timeout is per chunk, not for the download)
  { prefix: '/api/export', service: 'trips', access: 'required' },
  // a share link's trip and photos, for anyone holding the link (no session; a
  // signed-in visitor is forwarded as anonymous too: the route is public)
  { prefix: SharePaths.apiPrefix, service: 'trips', access: 'public', rateLimit: 'shared' },

  { prefix: '/api/bucketlist', service: 'bucketlist', access: 'required' },
  { prefix: '/api/itinerary', service: 'bucketlist', access: 'required' },

  { prefix: '/api/friends', service: 'social', access: 'required' },
  { prefix: '/api/friendRequests', service: 'social', access: 'required' },
  { prefix: '/api/acceptFriend', service: 'social', access: 'required' },
  { prefix: '/api/declineFriend', service: 'social', access: 'required' },
  { prefix: '/api/getUserFriends', service: 'social', access: 'required' },
  { prefix: '/api/search-users', service: 'social', access: 'required' },
  { prefix: '/api/add-friend', service: 'social', access: 'required' },

  { prefix: '/api/journal', service: 'journal', access: 'required' },

  { prefix: '/api/conversation', service: 'chat', access: 'required' },
  // the inbox
  { prefix: '/api/conversations', service: 'chat', access: 'required' },

  { prefix: '/api/places', service: 'places', access: 'required' },

  // the feed of friends' trips, the bell
  { prefix: '/api/feed', service: 'social', access: 'required' },
  { prefix: '/api/notifications', service: 'notifications', access: 'required' },

  // a traveller's statistics and a friend's (social holds every trip and friendship)
  { prefix: '/api/stats', service: 'social', access: 'required' },
];

export function maxBodyBytesFor(route: ProxyRoute): number {
  return route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
}

/** The 413 sentence for a route's cap, in MiB or KiB (1024-based) and exact bytes. */
export function bodyTooLargeMessage(maxBytes: number): string {
  const size =
    maxBytes >= 1024 * 1024
      ? `${(maxBytes / (1024 * 1024)).toFixed(1)} MiB`
      : `${(maxBytes / 1024).toFixed(1)} KiB`;
  return `The request body is too large: this route accepts at most ${size} (${maxBytes} bytes).`;
}

/** What the gateway answers when a service cannot be reached or answers badly. */
export const upstreamMessages = {
  badGateway: (service: ServiceName) => `The ${service} service answered badly. Please try again.`,
  timeout: (service: ServiceName) =>
    `The ${service} service took too long to answer. Please try again.`,
  unavailable: (service: ServiceName) =>
    `The ${service} service is unavailable right now. Please try again shortly.`,
};

/** The 415 sentence for a request body sent with a Content-Encoding (never decompressed here). */
export function compressedBodyMessage(encoding: string): string {
  return `Request bodies must be sent uncompressed: Content-Encoding "${encoding.slice(0, 40)}" is not accepted.`;
}

/**
 * Finds the route for a request path (query string ignored), or null. The path is the
 * normalised one (`paths.ts`): the gateway rewrites every URL before routing.
 */
export function routeFor(path: string): ProxyRoute | null {
  const clean = path.split('?', 1)[0] ?? '';
  for (const route of PROXY_ROUTES) {
    if (clean === route.prefix || clean.startsWith(`${route.prefix}/`)) return route;
  }
  return null;
}
