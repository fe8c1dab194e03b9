import type { Identity } from '@wayfarer/service-kit';
import { revocationExpiresAt } from '../domain/session';
import type { RevokedSession } from '../store/sessions';
import type { AuthUseCaseDeps, Log } from './deps';

/** The session making the request, as a revocation (null when it has no id or has expired). */
export function currentSession(identity: Identity): RevokedSession | null {
  const exp = revocationExpiresAt(identity.sessionExpires);
  return identity.sessionId && exp !== null ? { jti: identity.sessionId, exp } : null;
}

/** Revocations committed in PostgreSQL, copied to Redis now (the sync does it otherwise). */
export async function announceRevocations(
  deps: Pick<AuthUseCaseDeps, 'revocations'>,
  revoked: readonly RevokedSession[],
  log: Log,
): Promise<void> {
  const err = await deps.revocations.publishRecorded(revoked);
  if (err) log.warn({ err }, 'revocations not yet in Redis; the sync writes them');
}
