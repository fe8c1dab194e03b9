import { requireUserId } from '@wayfarer/service-kit';
import { sendObject } from '@wayfarer/storage/serve';
import { Messages } from '../domain/limits';
import { readablePhoto } from '../usecases/read-photo';
import type { TripsContext } from './context';

export function photoRoutes(ctx: TripsContext): void {
  ctx.app.get<{ Params: { tripId: string; photoId: string } }>(
    '/api/photos/:tripId/:photoId',
    async (request, reply) => {
      const userId = requireUserId(request);
      const { tripId, photoId } = request.params;
      const { variant, final } = await readablePhoto(ctx, userId, tripId, photoId);
      return sendObject(reply, ctx.photos, variant.key, {
        contentType: variant.contentType,
        notFoundMessage: Messages.photoNotFound,
        // the stand-in is replaced within seconds: never kept under this URL
        cacheControl: final ? undefined : 'no-store',
      });
    },
  );
}
