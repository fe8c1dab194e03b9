import type { Identity } from '@wayfarer/service-kit';
import { withTransaction } from '@wayfarer/service-kit/pg';
import { avatarPrefix } from '../domain/avatar';
import { enqueueUserDeleted } from '../events/outbox';
import type { RevokedSession } from '../store/sessions';
import { confirmOwnPassword } from './check-password';
import type { AuthUseCaseDeps, Log } from './deps';
import { announceRevocations, currentSession } from './revocations';

/**
 * Closes the signed-in user's account, once their password is checked under the login throttle
 * (wrong: WrongPasswordError; an account already gone: UserNotFoundError).
 *
 * One transaction: every session revoked (the current one too, listed or not), the row gone,
 * and `user.deleted` recorded for every other service's erasure (outbox: delivered whenever
 * Kafka is there, never lost). The closed-account fence is written before the commit: from the
 * answer on, share links, photos, the picture, search and friends' reads refuse the account
 * whatever Kafka does. No fence (Redis down), no closing. After the commit, the avatars and the
 * login counters go at once when MinIO and Redis answer; auth's erasure consumer removes the
 * avatars in any case (retried until done), and the counters expire with their window anyway.
 */
export async function closeAccount(
  deps: AuthUseCaseDeps,
  identity: Identity,
  input: { password: string; clientIp: string },
  log: Log,
): Promise<void> {
  const user = await confirmOwnPassword(deps, identity.userId, input, log);

  const current = currentSession(identity);
  let fenced = false;
  let revoked: RevokedSession[];
  try {
    revoked = await withTransaction(deps.pool, async (client) => {
      const all = await deps.sessions.revokeAllOf(client, user.id);
      if (current) await deps.sessions.recordRevoked(client, [current]);
      if (await deps.users.delete(client, user.id)) await enqueueUserDeleted(client, user.id);
      await deps.fences.closeAccount(user.id);
      fenced = true;
      return current && !all.some((s) => s.jti === current.jti) ? [...all, current] : all;
    });
  } catch (err) {
    // not committed after all (the row is still there): the account is open again
    if (fenced && (await deps.users.findById(user.id).catch(() => null))) {
      await deps.fences.liftClosedAccount(user.id).catch(() => undefined);
    }
    throw err;
  }
  deps.relay?.kick();
  await announceRevocations(deps, revoked, log);
  await deps.avatars.removePrefix(avatarPrefix(user.id)).catch((err: unknown) => {
    log.warn({ err }, 'avatars not removed yet; the erasure consumer will');
  });
  await deps.throttle.forgetAccount(user.email).catch((err: unknown) => {
    log.warn({ err }, 'could not remove the closed account’s login counters');
  });
}
