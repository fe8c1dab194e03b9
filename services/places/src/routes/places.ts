import { parse, requireUserId } from '@wayfarer/service-kit';
import { searchPlaces } from '../usecases/search-places';
import type { PlacesContext } from './context';
import { PlacesQuery } from './schema';

export function placesRoutes(ctx: PlacesContext): void {
  // Place search for the keyless map: signed-in users only (the gateway checks too).
  ctx.app.get('/api/places', async (request, reply) => {
    requireUserId(request);
    const { query, limit } = parse(PlacesQuery, request.query);
    const body = searchPlaces(ctx, query, limit);
    // Same answer for everyone until the next deploy; per-user cookies keep it private.
    return reply.header('cache-control', 'private, max-age=3600').send(body);
  });
}
