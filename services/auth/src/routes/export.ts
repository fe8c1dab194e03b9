import { INTERNAL_EXPORT_PATH, type ExportAreaDocument } from '@wayfarer/contracts';
import { notFound, requireUserId } from '@wayfarer/service-kit';
import { avatarUrl } from '../domain/avatar';
import type { AuthContext } from './context';

/** One item of the `profile` area (never the password hash). */
export interface ExportedProfile {
  id: string;
  name: string;
  email: string;
  createdAt: string;
  profilePicture: string;
}

/**
 * Issue 22: the user's `profile` area of the account export, for trips' `GET /api/export` (an
 * identity proof for the user; the gateway does not route this path).
 */
export function exportRoutes(ctx: AuthContext): void {
  ctx.app.get(INTERNAL_EXPORT_PATH, async (request) => {
    const user = await ctx.users.findById(requireUserId(request));
    if (!user) throw notFound('User not found.');
    const profile: ExportedProfile = {
      id: user.id,
      name: user.name,
      email: user.email,
      createdAt: user.createdAt.toISOString(),
      profilePicture: avatarUrl(user.avatarKey),
    };
    const body: ExportAreaDocument = { area: 'profile', items: [profile] };
    return body;
  });
}
