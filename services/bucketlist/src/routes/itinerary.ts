import { z } from 'zod';
import { BucketListMessages, ItineraryInput, type ItineraryResponse } from '@wayfarer/contracts';
import { notFound, parse, requireUserId } from '@wayfarer/service-kit';
import { readItinerary } from '../usecases/read-itinerary';
import { saveItinerary } from '../usecases/save-itinerary';
import type { BucketListContext } from './context';

const Params = z.object({ bucketListId: z.string() });

export function itineraryRoutes(ctx: BucketListContext): void {
  const { app, deps } = ctx;

  app.get('/api/itinerary/:bucketListId', async (request) => {
    const userId = requireUserId(request);
    const { bucketListId } = parse(Params, request.params);
    const itinerary = await readItinerary(deps, userId, bucketListId);
    if (!itinerary) throw notFound(BucketListMessages.notFound);
    const body: ItineraryResponse = { itinerary };
    return body;
  });

  /** The full list, replacing the saved one. */
  app.post('/api/itinerary', async (request) => {
    const userId = requireUserId(request);
    const { bucketListId, itinerary } = parse(ItineraryInput, request.body);
    const saved = await saveItinerary(deps, userId, bucketListId, itinerary);
    if (!saved) throw notFound(BucketListMessages.notFound);
    const body: ItineraryResponse = { itinerary: saved };
    return body;
  });
}
