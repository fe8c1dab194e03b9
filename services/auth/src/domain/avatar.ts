import { randomBytes } from 'node:crypto';
import { DEFAULT_AVATAR } from '@wayfarer/contracts';
import { imageTypeOfExtension, type ImageType } from '@wayfarer/storage/image';

/** Public path prefix under which avatars are served (through the gateway). */
export const AVATAR_PATH = '/api/avatars';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FILE = /^([a-f0-9]{32})\.(png|jpg|gif|webp)$/;

/** A fresh object key for a user's avatar: `<userId>/<random>.<ext>`. */
export function newAvatarKey(userId: string, type: ImageType): string {
  return `${userId}/${randomBytes(16).toString('hex')}.${type.ext}`;
}

/** The URL the client uses for a user's picture: our avatar route, or the default avatar. */
export function avatarUrl(key: string | null | undefined): string {
  return key ? `${AVATAR_PATH}/${key}` : DEFAULT_AVATAR;
}

/**
 * Validates the `:userId/:file` of an avatar request strictly (only keys we could have made,
 * so no path traversal or odd characters reach the store). Returns the key and its type.
 */
export function parseAvatarKey(
  userId: string,
  file: string,
): { key: string; type: ImageType } | null {
  if (!UUID.test(userId)) return null;
  const m = FILE.exec(file);
  if (!m) return null;
  const type = imageTypeOfExtension(m[2]!);
  return type ? { key: `${userId}/${file}`, type } : null;
}

/** Where every avatar object of a user lives (`<userId>/`): what an erasure removes. */
export function avatarPrefix(userId: string): string {
  return `${userId}/`;
}
