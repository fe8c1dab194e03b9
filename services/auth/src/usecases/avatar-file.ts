import {
  AVATAR_IMAGE,
  ImageRejectedError,
  processImage,
  type ImageFile,
} from '@wayfarer/storage/pipeline';
import type { SpooledImage } from '@wayfarer/storage/upload';
import { newAvatarKey } from '../domain/avatar';
import { PictureRejectedError } from '../domain/errors';
import type { AuthUseCaseDeps, Log } from './deps';

/**
 * The profile picture through storage's image pipeline: one upright image, no metadata, decoded,
 * checked and re-encoded before anything is stored. What is no image: PictureRejectedError.
 */
export async function processPicture(picture: SpooledImage): Promise<ImageFile> {
  try {
    const { variants } = await processImage(picture.path, { avatar: AVATAR_IMAGE }, picture.path);
    return variants.avatar;
  } catch (err) {
    if (err instanceof ImageRejectedError) throw new PictureRejectedError();
    throw err;
  }
}

/** Stores a processed picture under a fresh key of the user's: returns the key. */
export async function putAvatar(
  deps: Pick<AuthUseCaseDeps, 'avatars'>,
  userId: string,
  avatar: ImageFile,
): Promise<string> {
  const key = newAvatarKey(userId, avatar.type);
  await deps.avatars.putFile(key, avatar.path, avatar.type.contentType);
  return key;
}

/** Removes an avatar object no row names (or no longer names); a failure is only logged. */
export async function dropAvatar(
  deps: Pick<AuthUseCaseDeps, 'avatars'>,
  avatarKey: string,
  log: Log,
  why: string,
): Promise<void> {
  await deps.avatars.remove(avatarKey).catch((err: unknown) => {
    log.error({ err, avatarKey }, why);
  });
}
