import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { HttpError, identityProofHeaders } from '@wayfarer/service-kit';
import {
  IdentityHeaders,
  revokedSessionKey,
  SESSION_ALGORITHM,
  SESSION_AUDIENCE,
  SESSION_COOKIE,
  SESSION_ISSUER,
  type SessionClaims,
} from '@wayfarer/contracts';

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

/** Registers token verification (public key only) and a `verifySession` helper. */
export async function registerSessionVerification(
  app: FastifyInstance,
  publicKeyPem: string,
): Promise<void> {
  await app.register(fastifyJwt, {
    secret: { public: publicKeyPem },
    cookie: { cookieName: SESSION_COOKIE, signed: false },
    verify: {
      algorithms: [SESSION_ALGORITHM],
      allowedIss: SESSION_ISSUER,
      allowedAud: SESSION_AUDIENCE,
      requiredClaims: ['sub', 'jti', 'exp'],
      cache: true,
    },
  });
  app.decorateRequest('session', null);
}

/** The 503 message when Redis (revocations) cannot be asked. */
export const SESSION_STORE_UNAVAILABLE_MESSAGE =
  'Sessions cannot be checked right now (session store unavailable). Please try again shortly.';

/**
 * Verifies the session cookie: signature, issuer, audience, expiry, then revocation in Redis.
 * Returns null for any invalid or revoked session (the caller decides what that means).
 *
 * When Redis cannot be asked, a validly signed session is either refused with a 503 naming the
 * cause ('refuse', every route that needs a session) or accepted on its signature alone
 * ('trust-signature', logout: at worst an already revoked session is logged out again, and
 * refusing would leave the session usable while telling the user it failed).
 */
export async function verifySession(
  request: FastifyRequest,
  redis: Redis,
  whenStoreDown: 'refuse' | 'trust-signature' = 'refuse',
): Promise<VerifiedSession | null> {
  if (!request.cookies[SESSION_COOKIE]) return null;
  let claims: SessionClaims;
  try {
    claims = await request.jwtVerify<SessionClaims>({ onlyCookie: true });
  } catch (err) {
    request.log.info({ reason: (err as Error).message }, 'rejected session token');
    return null;
  }
  const session = { userId: claims.sub, sessionId: claims.jti, expires: claims.exp };
  let revoked: number;
  try {
    revoked = await redis.exists(revokedSessionKey(claims.jti));
  } catch (err) {
    // Redis fails fast (redis.ts): the answer is immediate either way
    request.log.warn({ err: (err as Error).message }, 'session store unavailable');
    if (whenStoreDown === 'trust-signature') return session;
    throw new HttpError(503, SESSION_STORE_UNAVAILABLE_MESSAGE, 'service_unavailable');
  }
  if (revoked) {
    request.log.info({ jti: claims.jti }, 'rejected revoked session');
    return null;
  }
  return session;
}

const IDENTITY_HEADER_NAMES = Object.values(IdentityHeaders);

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
 * The headers sent upstream: client-sent identity headers (and proofs) are always dropped;
 * the verified identity (if any), the client address and a fresh identity proof binding them
 * to this method and path are set in their place (service-kit `identityProofHeaders`).
 */
export function upstreamHeaders(
  headers: Record<string, string | string[] | undefined>,
  forwarded: ForwardedRequest,
  identityProofSecret: Buffer,
  extra: Record<string, string>,
  nowMs: number = Date.now(),
): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      !IDENTITY_HEADER_NAMES.includes(name.toLowerCase() as (typeof IDENTITY_HEADER_NAMES)[number])
    ) {
      out[name] = value;
    }
  }
  const { session } = forwarded;
  const proven = identityProofHeaders(
    {
      userId: session?.userId ?? null,
      sessionId: session?.sessionId ?? null,
      sessionExpires: session?.expires ?? null,
      clientIp: forwarded.clientIp,
    },
    { method: forwarded.method, path: forwarded.path },
    identityProofSecret,
    nowMs,
  );
  return { ...out, ...extra, ...proven };
}
