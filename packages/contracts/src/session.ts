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
