import { HttpError, parse, requireUserId } from '@wayfarer/service-kit';
import { toPlace } from '../domain/city';
import type { PlacesContext } from './context';
import { PlacesQuery, type PlacesResponse } from './schema';

export function placesRoutes(ctx: PlacesContext): void {
  const { app } = ctx;

  // Place search for the keyless map: signed-in users only (the gateway checks too).
  app.get('/api/places', async (request, reply) => {
    requireUserId(request);
    const { query, limit } = parse(PlacesQuery, request.query);
    const index = ctx.index();
    if (!index) {
      reply.header('retry-after', '1');
      throw new HttpError(503, 'Place search is starting up; try again in a moment.', 'not_ready');
    }
    const body: PlacesResponse = { places: index.search(query, limit).map(toPlace) };
    // Same answer for everyone until the next deploy; per-user cookies keep it private.
    return reply.header('cache-control', 'private, max-age=3600').send(body);
  });
}
