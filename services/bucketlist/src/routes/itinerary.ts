import { z } from 'zod';
import { BucketListMessages, ItineraryInput, type ItineraryResponse } from '@wayfarer/contracts';
import { notFound, parse, requireUserId } from '@wayfarer/service-kit';
import { isItemId } from '../domain/visits';
import type { BucketListContext } from './context';

const Params = z.object({ bucketListId: z.string() });

export function itineraryRoutes(ctx: BucketListContext): void {
  const { app, items } = ctx;

  app.get('/api/itinerary/:bucketListId', async (request) => {
    const userId = requireUserId(request);
    const { bucketListId } = parse(Params, request.params);
    const itinerary = isItemId(bucketListId) ? await items.itinerary(userId, bucketListId) : null;
    if (!itinerary) throw notFound(BucketListMessages.notFound);
    const body: ItineraryResponse = { itinerary };
    return body;
  });

  /** The full list, replacing the saved one (spec section 7). */
  app.post('/api/itinerary', async (request) => {
    const userId = requireUserId(request);
    const { bucketListId, itinerary } = parse(ItineraryInput, request.body);
    const saved = isItemId(bucketListId)
      ? await items.saveItinerary(userId, bucketListId, itinerary)
      : null;
    if (!saved) throw notFound(BucketListMessages.notFound);
    ctx.relay?.kick();
    const body: ItineraryResponse = { itinerary: saved };
    return body;
  });
}
