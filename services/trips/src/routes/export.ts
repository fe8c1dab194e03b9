import { requireUserId } from '@wayfarer/service-kit';
import { exportTrip } from '../usecases/export-trip';
import type { TripsContext } from './context';

type ExportParams = { Params: { id: string; format: string } };

/** RFC 8187's `attr-char`: what a `filename*` value keeps as it is; the rest is %-encoded. */
const encodeExtValue = (value: string): string =>
  encodeURIComponent(value).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/**
 * `Content-Disposition` of a download (RFC 6266): the ASCII name for every client, and the
 * UTF-8 one (`filename*`) for those that read it (every current browser).
 */
export function attachmentDisposition(asciiName: string, utf8Name: string): string {
  return `attachment; filename="${asciiName.replace(/["\\]/g, '')}"; filename*=UTF-8''${encodeExtValue(utf8Name)}`;
}

/** The files are UTF-8 text: said so in every `Content-Type` (Fastify adds it to some only). */
const withCharset = (type: string): string =>
  /;\s*charset=/i.test(type) ? type : `${type}; charset=utf-8`;

/**
 * The per-trip files: `GET /api/trips/{id}/export.<gpx|kml|geojson|ics>`, the owner's
 * trip only (else 404, like `GET /api/trips/{id}`); another extension 400. A download, never
 * stored by a cache.
 */
export function exportRoutes(ctx: TripsContext): void {
  ctx.app.get<ExportParams>('/api/trips/:id/export.:format', async (request, reply) => {
    const userId = requireUserId(request);
    const { id, format } = request.params;
    const file = await exportTrip(ctx, userId, id, format);
    return reply
      .type(withCharset(file.contentType))
      .header('content-disposition', attachmentDisposition(file.fileName, file.title))
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(file.body);
  });
}
