import { INTERNAL_EXPORT_PATH, type ExportAreaDocument } from '@wayfarer/contracts';
import { requireUserId } from '@wayfarer/service-kit';
import { exportFriends } from '../usecases/export-friends';
import type { SocialContext } from './context';

/**
 * The user's `friends` area of the account export (each friend's id, name and since when), for
 * trips' `GET /api/export` (an identity proof for the user; the gateway does not route this
 * path).
 */
export function exportRoutes({ app, deps }: SocialContext): void {
  app.get(INTERNAL_EXPORT_PATH, async (request) => {
    const items = await exportFriends(deps, requireUserId(request));
    const body: ExportAreaDocument = { area: 'friends', items };
    return body;
  });
}
