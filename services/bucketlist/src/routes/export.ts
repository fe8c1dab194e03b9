import { INTERNAL_EXPORT_PATH, type ExportAreaDocument } from '@wayfarer/contracts';
import { requireUserId } from '@wayfarer/service-kit';
import { exportItems } from '../usecases/export-items';
import type { BucketListContext } from './context';

/**
 * The user's `bucketlist` area of the account export (every place, visited ones too, each
 * with its itinerary), for trips' `GET /api/export` (an identity proof for the user; the
 * gateway does not route this path).
 */
export function exportRoutes(ctx: BucketListContext): void {
  ctx.app.get(INTERNAL_EXPORT_PATH, async (request) => {
    const items = await exportItems(ctx.deps, requireUserId(request));
    const body: ExportAreaDocument = { area: 'bucketlist', items };
    return body;
  });
}
