import type { UserDetailsResponse } from '@wayfarer/contracts';
import { avatarUrl } from '../domain/avatar';
import { UserNotFoundError } from '../domain/errors';
import type { AuthUseCaseDeps } from './deps';

/** The signed-in user's name and picture URL (the default avatar when they have none). */
export async function readUserDetails(
  deps: Pick<AuthUseCaseDeps, 'users'>,
  userId: string,
): Promise<UserDetailsResponse> {
  const user = await deps.users.findById(userId);
  if (!user) throw new UserNotFoundError();
  return { username: user.name, profilePicture: avatarUrl(user.avatarKey) };
}
