import { parseAvatarKey } from '../domain/avatar';
import { AvatarNotFoundError, InvalidAvatarAddressError } from '../domain/errors';
import type { AuthUseCaseDeps } from './deps';

/**
 * Which object a picture's address names, and its type: only a key auth could have made
 * (else InvalidAvatarAddressError), and never a closed account's, which is gone at once, even
 * before its objects are removed (AvatarNotFoundError). Whether the object exists is the
 * read's to find.
 */
export async function openAvatar(
  deps: Pick<AuthUseCaseDeps, 'fences'>,
  userId: string,
  file: string,
): Promise<{ key: string; contentType: string }> {
  const parsed = parseAvatarKey(userId, file);
  if (!parsed) throw new InvalidAvatarAddressError();
  if (await deps.fences.isClosed(userId)) throw new AvatarNotFoundError();
  return { key: parsed.key, contentType: parsed.type.contentType };
}
