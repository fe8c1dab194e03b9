import fastifyJwt, { type VerifyOptions } from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { HttpError, type IdentityProofMinter } from '@wayfarer/service-kit';
import {
  IdentityHeaders,
  revokedSessionKey,
  SESSION_ALGORITHM,
  SESSION_AUDIENCE,
  SESSION_COOKIE,
  SESSION_ISSUER,
  type SessionClaims,
} from '@wayfarer/contracts';
import type { RevocationCache } from './revocations';

export interface VerifiedSession {
  userId: string;
  sessionId: string;
  expires: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    session: VerifiedSession | null;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: SessionClaims;
    user: SessionClaims;
  }
}

/** Verified tokens kept (each until its expiry): one per active session. */
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

export type TokenVerifier = (token: string) => SessionClaims;

/** What every session token must be: auth's algorithm, issuer and audience, and its claims. */
export const SESSION_VERIFY_OPTIONS = {
  algorithms: [SESSION_ALGORITHM] as NonNullable<VerifyOptions['algorithms']>,
  allowedIss: SESSION_ISSUER,
  allowedAud: SESSION_AUDIENCE,
  requiredClaims: ['sub', 'jti', 'exp'],
};

/**
 * The session token verifier: `@fastify/jwt` registered once with the public key only (it can
 * never sign) and its options pinned (algorithm, issuer, audience, `sub`, `jti` and `exp`
 * required), so every verification goes to the one fast-jwt verifier the plugin built at
 * registration; it is never called with options of its own (that made a verifier per call).
 *
 * Verified tokens are kept by their exact text in front of it (`keepVerified`), so a warm token
 * costs a Map lookup and an expiry check, not a signature check.
 */
export async function registerSessionVerifier(
  app: FastifyInstance,
  publicKeyPem: string,
  now: () => number = Date.now,
): Promise<TokenVerifier> {
  await app.register(fastifyJwt, {
    secret: { public: publicKeyPem },
    verify: SESSION_VERIFY_OPTIONS,
  });
  return keepVerified((token) => app.jwt.verify<SessionClaims>(token), now);
}

/**
 * Verified tokens kept by their exact text (a Map keyed by the token: a string hash, where
 * fast-jwt's own cache hashed each token with SHA-256 first) until their `exp`; an expired one
 * is dropped and verified again (and refused). At most VERIFIED_TOKEN_CACHE_SIZE kept, the
 * oldest dropped first. Revocation is checked per request by the caller, never cached here.
 */
export function keepVerified(verify: TokenVerifier, now: () => number = Date.now): TokenVerifier {
  const verified = new Map<string, SessionClaims>();
  return (token) => {
    const kept = verified.get(token);
    if (kept !== undefined) {
      if (kept.exp * 1000 > now()) return kept;
      verified.delete(token);
    }
    const claims = verify(token); // throws on any invalid or expired token
    if (verified.size >= VERIFIED_TOKEN_CACHE_SIZE) {
      verified.delete(verified.keys().next().value!);
    }
    verified.set(token, claims);
    return claims;
  };
}

export function registerSessionDecorator(app: FastifyInstance): void {
  app.decorateRequest('session', null);
}

/** The session cookie's value from a Cookie header, or null (no full cookie parse). */
export function sessionCookieOf(header: string | undefined): string | null {
  if (!header) return null;
  const name = `${SESSION_COOKIE}=`;
  let at = header.indexOf(name);
  // the name must start the header or follow "; " (not be the end of another cookie's name)
  while (at > 0 && header[at - 1] !== ' ' && header[at - 1] !== ';') {
    at = header.indexOf(name, at + 1);
  }
  if (at === -1) return null;
  const from = at + name.length;
  const to = header.indexOf(';', from);
  let value = (to === -1 ? header.slice(from) : header.slice(from, to)).trim();
  if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
  if (value.includes('%')) {
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return value || null;
}

/** The 503 message when Redis (revocations) cannot be asked. */
export const SESSION_STORE_UNAVAILABLE_MESSAGE =
  'Sessions cannot be checked right now (session store unavailable). Please try again shortly.';

/** What the session check needs: the verifier, the local revocation copy, Redis behind it. */
export interface SessionChecker {
  verifyToken: TokenVerifier;
  revocations: RevocationCache;
  redis: Redis;
}

/**
 * Verifies the session cookie: signature, issuer, audience, expiry (cached per token), then
 * revocation: from the gateway's local copy when it is live (`revocations.ts`, no round trip),
 * else from Redis (EXISTS). Returns null for any invalid or revoked session (the caller
 * decides what that means).
 *
 * When the copy is not live and Redis cannot be asked, a validly signed session is either
 * refused with a 503 naming the cause ('refuse', every route that needs a session) or accepted
 * on its signature alone ('trust-signature', logout: at worst an already revoked session is
 * logged out again, and refusing would leave the session usable while telling the user it
 * failed).
 */
export async function verifySession(
  request: FastifyRequest,
  checker: SessionChecker,
  whenStoreDown: 'refuse' | 'trust-signature' = 'refuse',
): Promise<VerifiedSession | null> {
  return checkSession(request, checker, whenStoreDown);
}

/**
 * `verifySession` without a promise when none is needed: the session (or null) at once when
 * the local revocation copy answers (the usual case), a promise only when Redis must be asked.
 */
export function checkSession(
  request: FastifyRequest,
  checker: SessionChecker,
  whenStoreDown: 'refuse' | 'trust-signature' = 'refuse',
): VerifiedSession | null | Promise<VerifiedSession | null> {
  const token = sessionCookieOf(request.headers.cookie);
  if (!token) return null;
  let claims: SessionClaims;
  try {
    claims = checker.verifyToken(token);
  } catch (err) {
    request.log.debug({ reason: (err as Error).message }, 'rejected session token');
    return null;
  }
  const session = sessionOf(claims);
  const revoked = checker.revocations.isRevoked(claims.jti);
  if (revoked === undefined) return askRedis(request, checker, session, whenStoreDown);
  return unlessRevoked(request, session, revoked);
}

const sessionOf = (claims: SessionClaims): VerifiedSession => ({
  userId: claims.sub,
  sessionId: claims.jti,
  expires: claims.exp,
});

/**
 * The session of a Cookie header when it is known at once to be valid: verified (the cached
 * verifier) and not revoked in the live local revocation copy. Undefined for anything else (no
 * cookie, an invalid or revoked session, the copy not live), which `checkSession` decides: the
 * gateway's hot path (`hot-path.ts`) leaves those requests to Fastify.
 */
export function liveSessionOf(
  cookieHeader: string | undefined,
  checker: SessionChecker,
): VerifiedSession | undefined {
  const token = sessionCookieOf(cookieHeader);
  if (!token) return undefined;
  let claims: SessionClaims;
  try {
    claims = checker.verifyToken(token);
  } catch {
    return undefined;
  }
  return checker.revocations.isRevoked(claims.jti) === false ? sessionOf(claims) : undefined;
}

async function askRedis(
  request: FastifyRequest,
  checker: SessionChecker,
  session: VerifiedSession,
  whenStoreDown: 'refuse' | 'trust-signature',
): Promise<VerifiedSession | null> {
  let revoked: boolean;
  try {
    revoked = (await checker.redis.exists(revokedSessionKey(session.sessionId))) > 0;
  } catch (err) {
    // Redis fails fast (redis.ts): the answer is immediate either way
    request.log.warn({ err: (err as Error).message }, 'session store unavailable');
    if (whenStoreDown === 'trust-signature') return session;
    throw new HttpError(503, SESSION_STORE_UNAVAILABLE_MESSAGE, 'service_unavailable');
  }
  return unlessRevoked(request, session, revoked);
}

function unlessRevoked(
  request: FastifyRequest,
  session: VerifiedSession,
  revoked: boolean,
): VerifiedSession | null {
  if (revoked) {
    request.log.debug({ jti: session.sessionId }, 'rejected revoked session');
    return null;
  }
  return session;
}

const IDENTITY_HEADER_NAMES: ReadonlySet<string> = new Set(Object.values(IdentityHeaders));

/** The request as the proxy forwards it: what the identity proof binds. */
export interface ForwardedRequest {
  session: VerifiedSession | null;
  /** The client address the gateway determined (its TRUST_PROXY rules). */
  clientIp: string;
  method: string;
  /** The forwarded path (the prefix is rewritten to itself, so the request's own path). */
  path: string;
}

/**
 * The headers sent upstream: client-sent identity headers (and proofs) are always dropped, and
 * so is `Expect`;
 * the verified identity (if any), the client address and an identity proof binding them to
 * this method and path are set in their place (service-kit `IdentityProofMinter`: a proof
 * minted for the same request in the last 10 s is reused).
 */
export function upstreamHeaders(
  headers: Record<string, string | string[] | undefined>,
  forwarded: ForwardedRequest,
  proofs: IdentityProofMinter,
  extra: Record<string, string>,
  nowMs: number = Date.now(),
): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const name in headers) {
    // `Expect: 100-continue` (curl sends it with bodies over 1 MiB) was answered by the
    // gateway's own server already; undici refuses to send it (a 502 for every such upload)
    if (name === 'expect') continue;
    // Node gives header names in lower case; a name of another case is compared lowered
    if (!IDENTITY_HEADER_NAMES.has(name) && !IDENTITY_HEADER_NAMES.has(name.toLowerCase())) {
      out[name] = headers[name];
    }
  }
  for (const name in extra) out[name] = extra[name];
  const { session } = forwarded;
  const proven = proofs.headers(
    {
      userId: session?.userId ?? null,
      sessionId: session?.sessionId ?? null,
      sessionExpires: session?.expires ?? null,
      clientIp: forwarded.clientIp,
    },
    { method: forwarded.method, path: forwarded.path },
    nowMs,
  );
  for (const name in proven) out[name] = proven[name];
  return out;
}
