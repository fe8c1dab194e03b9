import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
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

/**
 * Verifies the session cookie: signature, issuer, audience, expiry, then revocation in Redis.
 * Returns null for any invalid or revoked session (the caller decides what that means).
 */
export async function verifySession(
  request: FastifyRequest,
  redis: Redis,
): Promise<VerifiedSession | null> {
  if (!request.cookies[SESSION_COOKIE]) return null;
  let claims: SessionClaims;
  try {
    claims = await request.jwtVerify<SessionClaims>({ onlyCookie: true });
  } catch (err) {
    request.log.info({ reason: (err as Error).message }, 'rejected session token');
    return null;
  }
  if (await redis.exists(revokedSessionKey(claims.jti))) {
    request.log.info({ jti: claims.jti }, 'rejected revoked session');
    return null;
  }
  return { userId: claims.sub, sessionId: claims.jti, expires: claims.exp };
}

const IDENTITY_HEADER_NAMES = Object.values(IdentityHeaders);

/**
 * The headers sent upstream: client-sent identity headers are always dropped, and the
 * verified identity (if any) is set in their place.
 */
export function upstreamHeaders(
  headers: Record<string, string | string[] | undefined>,
  session: VerifiedSession | null,
  extra: Record<string, string>,
): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (
      !IDENTITY_HEADER_NAMES.includes(name.toLowerCase() as (typeof IDENTITY_HEADER_NAMES)[number])
    ) {
      out[name] = value;
    }
  }
  if (session) {
    out[IdentityHeaders.userId] = session.userId;
    out[IdentityHeaders.sessionId] = session.sessionId;
    out[IdentityHeaders.sessionExpires] = String(session.expires);
  }
  return { ...out, ...extra };
}
