import { INTERNAL_EXPORT_PATH, type ExportAreaDocument } from '@wayfarer/contracts';
import { requireUserId } from '@wayfarer/service-kit';
import type { SocialContext } from './context';

/**
 * Issue 22: the user's `friends` area of the account export (each friend's id, name and since
 * when), for trips' `GET /api/export` (an identity proof for the user; the gateway does not
 * route this path).
 */
export function exportRoutes(ctx: SocialContext): void {
  ctx.app.get(INTERNAL_EXPORT_PATH, async (request) => {
    const items = await ctx.store.friendsSince(requireUserId(request));
    const body: ExportAreaDocument = { area: 'friends', items };
    return body;
  });
}
