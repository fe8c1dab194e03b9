import type { Identity } from '@wayfarer/service-kit';
import { LogoutNotRecordedError } from '../domain/errors';
import { revocationExpiresAt } from '../domain/session';
import type { AuthUseCaseDeps, Log } from './deps';

const SESSION_ID = /^[\w-]{1,128}$/;

/**
 * Revokes the session making the request: done only once the revocation is committed in
 * PostgreSQL (else LogoutNotRecordedError); Redis, what the gateway checks, is written too, and
 * synced from PostgreSQL when its own write failed. A session without a usable id or expiry
 * (or already expired) has nothing to revoke.
 */
export async function logOut(
  deps: Pick<AuthUseCaseDeps, 'revocations'>,
  identity: Identity | null,
  log: Log,
): Promise<void> {
  const sessionId = identity?.sessionId;
  const expiresAt = revocationExpiresAt(identity?.sessionExpires);
  if (!sessionId || !SESSION_ID.test(sessionId) || expiresAt === null) return;
  const result = await deps.revocations.revoke(sessionId, expiresAt);
  for (const err of result.errors) log.warn({ err }, 'logout: a revocation write failed');
  if (!result.recorded) throw new LogoutNotRecordedError();
}
