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
 * Headers the gateway sets after verifying a session. Any client-sent copy is stripped first,
 * so services can trust them.
 */
export const IdentityHeaders = {
  userId: 'x-user-id',
  sessionId: 'x-session-id',
  sessionExpires: 'x-session-exp',
} as const;
