import { ShareLinkInput, ShareMessages, SharePaths } from '@wayfarer/contracts';
import { parse, requireUserId } from '@wayfarer/service-kit';
import { sendObject } from '@wayfarer/storage/serve';
import { createShareLink, readShareLink, revokeShareLink } from '../usecases/share-link';
import { readSharedPhoto, readSharedTrip } from '../usecases/shared-trip';
import type { TripsContext } from './context';

type TripParams = { Params: { id: string } };
type SharedParams = { Params: { token: string } };
type SharedPhotoParams = { Params: { token: string; photoId: string } };

/** The API under a link is never indexed, whatever the page says (`allowIndexing`). */
const NOINDEX = { 'x-robots-tag': 'noindex' } as const;

/**
 * A photo under a link may be kept by the browser but checked again on every use, so a
 * revoked or expired link stops showing it at once; a stand-in (display variant not made yet)
 * is never kept.
 */
const SHARED_PHOTO_CACHE = 'private, no-cache';

/**
 * Share links: the owner's API (`/api/trips/{id}/share`: create or replace, read,
 * revoke; another user's trip is 404 as every read) and the public reads under a link
 * (`SharePaths.apiPrefix`: no session needed, the gateway forwards them with an identity proof
 * naming no user), each checked by `openSharedLink` alone.
 */
export function shareRoutes(ctx: TripsContext): void {
  const { app } = ctx;

  // on every answer under the prefix, 404s and 400s included
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith(`${SharePaths.apiPrefix}/`)) reply.headers(NOINDEX);
    done();
  });

  app.post<TripParams>('/api/trips/:id/share', async (request, reply) => {
    const userId = requireUserId(request);
    const input = parse(ShareLinkInput, request.body ?? {});
    const link = await createShareLink(ctx, userId, request.params.id, input);
    return reply.code(201).send(link);
  });

  app.get<TripParams>('/api/trips/:id/share', async (request) => {
    const userId = requireUserId(request);
    return readShareLink(ctx, userId, request.params.id);
  });

  app.delete<TripParams>('/api/trips/:id/share', async (request) => {
    const userId = requireUserId(request);
    await revokeShareLink(ctx, userId, request.params.id);
    return { message: ShareMessages.revoked };
  });

  app.get<SharedParams>(`${SharePaths.apiPrefix}/:token`, async (request, reply) => {
    const shared = await readSharedTrip(ctx, request.params.token);
    reply.header('cache-control', 'no-store');
    return shared;
  });

  app.get<SharedPhotoParams>(
    `${SharePaths.apiPrefix}/:token/photos/:photoId`,
    async (request, reply) => {
      const { token, photoId } = request.params;
      const { variant, final } = await readSharedPhoto(ctx, token, photoId);
      return sendObject(reply, ctx.photos, variant.key, {
        contentType: variant.contentType,
        notFoundMessage: ShareMessages.linkGone,
        cacheControl: final ? SHARED_PHOTO_CACHE : 'no-store',
      });
    },
  );
}
