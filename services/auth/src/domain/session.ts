import { randomUUID } from 'node:crypto';
import {
  SESSION_AUDIENCE,
  SESSION_ISSUER,
  SESSION_TTL_SECONDS,
  type SessionClaims,
} from '@wayfarer/contracts';

/** The claims of a new session token for `userId`, issued at `now`. */
export function sessionClaims(
  userId: string,
  now: Date = new Date(),
  jti: string = randomUUID(),
): SessionClaims {
  const iat = Math.floor(now.getTime() / 1000);
  return {
    sub: userId,
    jti,
    iat,
    exp: iat + SESSION_TTL_SECONDS,
    iss: SESSION_ISSUER,
    aud: SESSION_AUDIENCE,
  };
}

/**
 * How long a revocation marker must live: until the session would expire anyway. Without a
 * known expiry (should not happen behind the gateway), the full session lifetime is safe.
 * Returns 0 when the session has already expired (nothing to revoke).
 */
export function revocationTtlSeconds(
  expiresAt: number | undefined,
  now: Date = new Date(),
): number {
  if (expiresAt === undefined) return SESSION_TTL_SECONDS;
  const left = Math.ceil(expiresAt - now.getTime() / 1000);
  return Math.max(0, Math.min(left, SESSION_TTL_SECONDS));
}

/**
 * When a revocation may be forgotten (seconds since the epoch): when the session would expire,
 * capped as `revocationTtlSeconds` is; null when it has already expired (nothing to revoke).
 */
export function revocationExpiresAt(
  expiresAt: number | undefined,
  now: Date = new Date(),
): number | null {
  const ttl = revocationTtlSeconds(expiresAt, now);
  return ttl > 0 ? Math.floor(now.getTime() / 1000) + ttl : null;
}
