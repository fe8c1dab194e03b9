/**
 * The session contract between auth (which signs) and the gateway (which verifies).
 * Tokens are EdDSA (Ed25519) JWTs carried in an httpOnly cookie.
 */
export const SESSION_COOKIE = 'wayfarer_session';
export const SESSION_ALGORITHM = 'EdDSA';
export const SESSION_ISSUER = 'wayfarer-auth';
export const SESSION_AUDIENCE = 'wayfarer';
/** Session lifetime: 7 days. */
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

/** Claims inside the session token. `sub` is the user id, `jti` the session id. */
export interface SessionClaims {
  sub: string;
  jti: string;
  iat: number;
  exp: number;
  iss: string;
  aud: string;
}

/** Redis key marking a session as revoked (set by auth on logout, read by the gateway). */
export const revokedSessionKey = (jti: string): string => `session:revoked:${jti}`;

/**
 * Redis pub/sub channel on which auth announces each revocation, in the same MULTI as the
 * `revokedSessionKey` write (logout and the reconciler alike): the gateway keeps a local copy
 * of the revoked set, loaded with SCAN and kept exact by these messages.
 */
export const SESSION_REVOCATIONS_CHANNEL = 'session:revocations';

/** A revocation message: `<jti> <exp>` (exp: the session's expiry, seconds since the epoch). */
export const revocationMessage = (jti: string, expiresAtSeconds: number): string =>
  `${jti} ${expiresAtSeconds}`;

/** Reads a revocation message, or null when it is not one. */
export function parseRevocationMessage(message: string): { jti: string; exp: number } | null {
  const [jti, exp, extra] = message.split(' ');
  if (!jti || extra !== undefined || !/^\d{1,12}$/.test(exp ?? '')) return null;
  return { jti, exp: Number(exp) };
}

/**
 * Headers the gateway sets on every proxied request (any client-sent copy is stripped first):
 * the verified session's user, id and expiry (absent without a session), the client address it
 * determined, and `x-identity-proof`, an HMAC binding them to this request for a short while
 * (service-kit `identity-proof.ts`). Services trust the others only with a valid proof.
 */
export const IdentityHeaders = {
  userId: 'x-user-id',
  sessionId: 'x-session-id',
  sessionExpires: 'x-session-exp',
  clientIp: 'x-client-ip',
  proof: 'x-identity-proof',
} as const;
