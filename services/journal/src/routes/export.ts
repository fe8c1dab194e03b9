import { INTERNAL_EXPORT_PATH, type ExportAreaDocument } from '@wayfarer/contracts';
import { requireUserId } from '@wayfarer/service-kit';
import { exportJournal } from '../usecases/export-journal';
import type { JournalContext } from './context';

/**
 * The user's `journal` area of the account export (every entry they wrote, with its
 * destination id), for trips' `GET /api/export` (an identity proof for the user; the gateway
 * does not route this path).
 */
export function exportRoutes(ctx: JournalContext): void {
  ctx.app.get(INTERNAL_EXPORT_PATH, async (request) => {
    const items = await exportJournal(ctx.deps, requireUserId(request));
    const body: ExportAreaDocument = { area: 'journal', items };
    return body;
  });
}
