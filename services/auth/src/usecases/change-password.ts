import type { Identity } from '@wayfarer/service-kit';
import { withTransaction } from '@wayfarer/service-kit/pg';
import { confirmOwnPassword, hashPassword } from './check-password';
import type { AuthUseCaseDeps, Log } from './deps';
import { announceRevocations } from './revocations';

/**
 * Changes the signed-in user's password: the current one checked under the login throttle
 * (wrong: WrongPasswordError), then the new hash and the revocation of every other session
 * commit together; the session making the request stays signed in.
 */
export async function changePassword(
  deps: AuthUseCaseDeps,
  identity: Identity,
  input: { currentPassword: string; newPassword: string; clientIp: string },
  log: Log,
): Promise<void> {
  const user = await confirmOwnPassword(
    deps,
    identity.userId,
    { password: input.currentPassword, clientIp: input.clientIp },
    log,
  );
  const passwordHash = await hashPassword(input.newPassword);
  const revoked = await withTransaction(deps.pool, async (client) => {
    await deps.users.setPasswordHash(client, user.id, passwordHash);
    return deps.sessions.revokeAllOf(client, user.id, identity.sessionId);
  });
  await announceRevocations(deps, revoked, log);
}
