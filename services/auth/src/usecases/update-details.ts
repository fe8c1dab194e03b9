import type { UserDetailsResponse } from '@wayfarer/contracts';
import type { SpooledImage } from '@wayfarer/storage/upload';
import { withTransaction } from '@wayfarer/service-kit/pg';
import { avatarUrl } from '../domain/avatar';
import { UserNotFoundError } from '../domain/errors';
import { enqueueUserUpdated } from '../events/outbox';
import { dropAvatar, processPicture, putAvatar } from './avatar-file';
import type { AuthUseCaseDeps, Log } from './deps';

/**
 * Changes the signed-in user's name and/or picture. The picture is checked and stored as at
 * registration, then the row and `user.updated` (the profile as it now is) commit together;
 * the picture it replaced is removed after the commit (the row lock orders concurrent changes:
 * each removes its own). A new picture no row names (the user gone, the commit failed) is
 * removed again.
 */
export async function updateUserDetails(
  deps: AuthUseCaseDeps,
  userId: string,
  input: { name?: string; picture: SpooledImage | null },
  log: Log,
): Promise<UserDetailsResponse> {
  const avatar = input.picture ? await processPicture(input.picture) : null;
  const avatarKey = avatar ? await putAvatar(deps, userId, avatar) : undefined;
  const dropNew = async () => {
    if (avatarKey) await dropAvatar(deps, avatarKey, log, 'could not remove an unused avatar');
  };

  let changed: Awaited<ReturnType<typeof deps.users.update>>;
  try {
    changed = await withTransaction(deps.pool, async (client) => {
      const result = await deps.users.update(client, userId, { name: input.name, avatarKey });
      if (result) {
        await enqueueUserUpdated(client, {
          id: userId,
          name: result.after.name,
          profilePicture: avatarUrl(result.after.avatarKey),
        });
      }
      return result;
    });
  } catch (err) {
    await dropNew();
    throw err;
  }
  if (!changed) {
    await dropNew();
    throw new UserNotFoundError();
  }
  deps.relay?.kick();
  const old = changed.before.avatarKey;
  if (avatarKey && old && old !== avatarKey) {
    await dropAvatar(deps, old, log, 'could not remove the replaced avatar');
  }
  return { username: changed.after.name, profilePicture: avatarUrl(changed.after.avatarKey) };
}
