import { acceptsEncoding, notFound, requireUserId } from '@wayfarer/service-kit';
import { buildTripInput, isoDate } from '../domain/input';
import { Messages } from '../domain/limits';
import { isTripId, toApiTrip } from '../domain/trip';
import { createTrip } from '../usecases/create-trip';
import { deleteTrip } from '../usecases/delete-trip';
import { listMyTrips } from '../usecases/list-my-trips';
import type { TripsContext } from '../app';
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

  app.get<IdParams>('/api/trips/:id', async (request) => {
    const userId = requireUserId(request);
    const { id } = request.params;
    // someone else's trip is "not found" too: never reveal that it exists
    const trip = isTripId(id) ? await trips.findOwned(id, userId) : null;
    if (!trip) throw notFound(Messages.tripNotFound);
    return toApiTrip(trip);
  });

  app.delete<IdParams>('/api/trips/:id', async (request) => {
    const userId = requireUserId(request);
    const trip = await deleteTrip(ctx, userId, request.params.id);
    return { deletedTrip: toApiTrip(trip), message: Messages.tripDeleted };
  });

  app.post('/api/trips', async (request, reply) => {
    const userId = requireUserId(request);
    return ctx.spool.withRequestDir(async (spool) => {
      const form = await readTripForm(request, reply, spool);
      const input = buildTripInput(form.grouped, isoDate(ctx.now()));
      const trip = await createTrip(ctx, userId, input, form.photos);
      return reply.code(201).send(toApiTrip(trip));
    });
  });
}
