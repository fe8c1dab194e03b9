import type { ExportAreaDocument } from '@wayfarer/contracts';
import { avatarUrl } from '../domain/avatar';
import { UserNotFoundError } from '../domain/errors';
import type { AuthUseCaseDeps } from './deps';

/** One item of the `profile` area (never the password hash). */
export interface ExportedProfile {
  id: string;
  name: string;
  email: string;
  createdAt: string;
  profilePicture: string;
}

/** The user's `profile` area of the account export (trips assembles the whole export). */
export async function exportProfile(
  deps: Pick<AuthUseCaseDeps, 'users'>,
  userId: string,
): Promise<ExportAreaDocument> {
  const user = await deps.users.findById(userId);
  if (!user) throw new UserNotFoundError();
  const profile: ExportedProfile = {
    id: user.id,
    name: user.name,
    email: user.email,
    createdAt: user.createdAt.toISOString(),
    profilePicture: avatarUrl(user.avatarKey),
  };
  return { area: 'profile', items: [profile] };
}
