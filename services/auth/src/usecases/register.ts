import { randomUUID } from 'node:crypto';
import type { SpooledImage } from '@wayfarer/storage/upload';
import { withTransaction } from '@wayfarer/service-kit/pg';
import { avatarUrl } from '../domain/avatar';
import { DuplicateEmailError } from '../domain/errors';
import { enqueueUserRegistered } from '../events/outbox';
import { dropAvatar, processPicture, putAvatar } from './avatar-file';
import { hashPassword } from './check-password';
import type { AuthUseCaseDeps, Log } from './deps';

export interface Registration {
  name: string;
  email: string;
  password: string;
  /** Spooled and typed by its first bytes; not yet through the image pipeline. */
  picture: SpooledImage | null;
}

/**
 * A new account, signed in: the picture is checked and stored first, then the user's row,
 * `user.registered` and the first session commit together. A taken email (in any case) is a
 * DuplicateEmailError: answered early when seen, and guaranteed by the unique index when two
 * register at once; a stored picture no row names is removed again.
 */
export async function registerUser(
  deps: AuthUseCaseDeps,
  input: Registration,
  log: Log,
): Promise<{ userId: string; token: string }> {
  const avatar = input.picture ? await processPicture(input.picture) : null;
  // Cheap early answer; the unique index is what really guarantees it.
  if (await deps.users.emailTaken(input.email)) throw new DuplicateEmailError();

  const userId = randomUUID();
  const passwordHash = await hashPassword(input.password);
  const session = deps.issueSession(userId);
  const avatarKey = avatar ? await putAvatar(deps, userId, avatar) : null;
  try {
    await withTransaction(deps.pool, async (client) => {
      await deps.users.insert(client, {
        id: userId,
        name: input.name,
        email: input.email,
        passwordHash,
        avatarKey,
      });
      await enqueueUserRegistered(client, {
        id: userId,
        name: input.name,
        email: input.email,
        profilePicture: avatarUrl(avatarKey),
      });
      await deps.sessions.record(
        { jti: session.claims.jti, userId, exp: session.claims.exp },
        client,
      );
    });
  } catch (err) {
    if (avatarKey) await dropAvatar(deps, avatarKey, log, 'could not remove orphaned avatar');
    throw err;
  }
  deps.relay?.kick();
  return { userId, token: session.token };
}
