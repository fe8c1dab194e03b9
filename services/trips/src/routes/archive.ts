import { clientIpOf, requireUserId } from '@wayfarer/service-kit';
import { exportArchive, type ExportArchiveDeps } from '../usecases/export-archive';
import type { TripsContext } from './context';

/** `GET /api/export`, the whole account as one ZIP (usecases/export-archive.ts). */
export function archiveRoutes(
  ctx: TripsContext & { exportAreas: ExportArchiveDeps['areas'] },
): void {
  const { app } = ctx;
  const deps: ExportArchiveDeps = {
    trips: ctx.trips,
    photos: ctx.photos,
    areas: ctx.exportAreas,
    logger: ctx.logger,
    now: ctx.now,
  };

  app.get('/api/export', async (request, reply) => {
    const userId = requireUserId(request);
    const clientIp = clientIpOf(request);
    // the client leaving while the areas are asked stops the asking
    const left = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) left.abort();
    });
    const download = await exportArchive(deps, { userId, clientIp }, left.signal);
    if (left.signal.aborted) {
      download.stream.destroy();
      return reply;
    }
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${download.fileName}"`)
      .header('cache-control', 'no-store')
      .send(download.stream);
  });
}
