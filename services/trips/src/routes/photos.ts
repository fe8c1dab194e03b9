import { requireUserId } from '@wayfarer/service-kit';
import { readPhoto } from '../usecases/read-photo';
import type { TripsContext } from '../app';

export function photoRoutes(ctx: TripsContext): void {
  ctx.app.get<{ Params: { tripId: string; photoId: string } }>(
    '/api/photos/:tripId/:photoId',
    async (request, reply) => {
      const userId = requireUserId(request);
      const { tripId, photoId } = request.params;
      const { variant, stream } = await readPhoto(ctx, userId, tripId, photoId);
      return reply
        .header('content-type', variant.contentType)
        .header('content-length', variant.bytes)
        .header('cache-control', 'private, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .send(stream);
    },
  );
}
