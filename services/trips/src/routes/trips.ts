import { acceptsEncoding, requireUserId, sendOutcome, streamedClaim } from '@wayfarer/service-kit';
import { TRIP_FIRST_VERSION, tripETag } from '@wayfarer/contracts';
import { buildTripInput, isoDate } from '../domain/input';
import { Messages } from '../domain/limits';
import { toApiTrip } from '../domain/trip';
import { createTrip } from '../usecases/create-trip';
import { deleteTrip } from '../usecases/delete-trip';
import { listMyTrips } from '../usecases/list-my-trips';
import { readOwned } from '../usecases/read-trip';
import type { TripsContext } from './context';
import { sendTrip } from './edits';
import { readTripForm } from './form';

type IdParams = { Params: { id: string } };

export function tripRoutes(ctx: TripsContext): void {
  const { app } = ctx;

  app.get('/api/mytrips', async (request, reply) => {
    const userId = requireUserId(request);
    // kept by this instance while the owner's list version is unchanged; else the stored
    // summaries (JSON already) joined, not parsed and serialized again
    const list = await listMyTrips(ctx, userId);
    reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
    // a kept list goes encoded as it was kept when the client takes brotli (the gateway
    // passes an encoded answer through, so neither end compresses it again per request)
    if (list.br && acceptsEncoding(request.headers['accept-encoding'], 'br')) {
      return reply.header('content-encoding', 'br').send(list.br);
    }
    return reply.send(list.json);
  });

  // with the trip's version in its ETag: a change sends it back in If-Match (routes/edits.ts)
  app.get<IdParams>('/api/trips/:id', async (request, reply) => {
    const userId = requireUserId(request);
    // someone else's trip is "not found" too: never reveal that it exists
    return sendTrip(reply, await readOwned(ctx, userId, request.params.id));
  });

  app.delete<IdParams>('/api/trips/:id', async (request) => {
    const userId = requireUserId(request);
    const trip = await deleteTrip(ctx, userId, request.params.id);
    return { deletedTrip: toApiTrip(trip), message: Messages.tripDeleted };
  });

  /**
   * Takes an `Idempotency-Key`: a retry with it answers the first answer (the same trip, and
   * its first version's ETag), creating nothing; the key with another form (fields or photo
   * bytes) is a 422.
   */
  app.post('/api/trips', async (request, reply) => {
    const userId = requireUserId(request);
    const keyed = streamedClaim(request, userId); // a bad key: 400 before the body is read
    return ctx.spool.withRequestDir(async (spool) => {
      const form = await readTripForm(request, reply, spool, keyed.fingerprint);
      const outcome = await createTrip(ctx, {
        ownerId: userId,
        input: buildTripInput(form.grouped, isoDate(ctx.now())),
        files: form.photos,
        claim: keyed.claim(),
      });
      return sendOutcome(reply.header('etag', tripETag(TRIP_FIRST_VERSION)), outcome);
    });
  });
}
