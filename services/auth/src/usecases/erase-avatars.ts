import type { ObjectStore } from '@wayfarer/storage';
import { avatarPrefix } from '../domain/avatar';
import type { Log } from './deps';

/**
 * The part of a closed account that cannot go in the closing's transaction: whatever avatar
 * object is still under the user's prefix. A failure (MinIO down) throws, so the caller retries;
 * removing a prefix twice is harmless, so no marker is needed.
 */
export async function eraseAvatars(
  deps: { avatars: ObjectStore },
  userId: string,
  log: Log,
): Promise<void> {
  const removed = await deps.avatars.removePrefix(avatarPrefix(userId));
  if (removed > 0) log.info({ removed }, 'erasure: avatar objects removed');
}
