import { INTERNAL_EXPORT_PATH, type ExportAreaDocument } from '@wayfarer/contracts';
import { requireUserId } from '@wayfarer/service-kit';
import { exportMessages } from '../usecases/export-messages';
import type { ChatContext } from './context';

/**
 * The user's `messages` area of the account export (every message they sent and received,
 * with the other person's id and name), for trips' `GET /api/export` (an identity proof for
 * the user; the gateway does not route this path).
 */
export function exportRoutes(ctx: ChatContext): void {
  ctx.app.get(INTERNAL_EXPORT_PATH, async (request) => {
    const items = await exportMessages(ctx.deps, requireUserId(request));
    const body: ExportAreaDocument = { area: 'messages', items };
    return body;
  });
}
