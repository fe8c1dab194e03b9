import {
  acceptsEncoding,
  idempotencyKeyOf,
  notFound,
  recordedAnswer,
  RequestFingerprint,
  requireUserId,
  sendOutcome,
  type RecordedAnswer,
} from '@wayfarer/service-kit';
import { TRIP_FIRST_VERSION, tripETag } from '@wayfarer/contracts';
import { buildTripInput, isoDate } from '../domain/input';
import { Messages } from '../domain/limits';
import { isTripId, toApiTrip } from '../domain/trip';
import { createTrip } from '../usecases/create-trip';
import { deleteTrip } from '../usecases/delete-trip';
import { listMyTrips } from '../usecases/list-my-trips';
import type { TripsContext } from './context';
import { sendTrip } from './edits';
import { readTripForm } from './form';

type IdParams = { Params: { id: string } };

export function tripRoutes(ctx: TripsContext): void {
  const { app, trips } = ctx;

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
    const { id } = request.params;
    // someone else's trip is "not found" too: never reveal that it exists
    const trip = isTripId(id) ? await trips.findOwned(id, userId) : null;
    if (!trip) throw notFound(Messages.tripNotFound);
    return sendTrip(reply, trip);
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
    const key = idempotencyKeyOf(request); // a bad key: 400 before the body is read
    return ctx.spool.withRequestDir(async (spool) => {
      const fingerprint = key === null ? undefined : new RequestFingerprint('POST', request.url);
      const form = await readTripForm(request, reply, spool, fingerprint);
      const claim =
        key === null ? null : { owner: userId, key, fingerprint: fingerprint!.digest() };
      const input = buildTripInput(form.grouped, isoDate(ctx.now()));
      const outcome = await trips.idempotency.run(claim, async (stamp) => {
        let answer: RecordedAnswer | null = null;
        const trip = await createTrip(ctx, userId, input, form.photos, (made) =>
          stamp((answer = recordedAnswer(201, toApiTrip(made)))),
        );
        return { answer: answer ?? recordedAnswer(201, toApiTrip(trip)), value: trip };
      });
      return sendOutcome(reply.header('etag', tripETag(TRIP_FIRST_VERSION)), outcome);
    });
  });
}
