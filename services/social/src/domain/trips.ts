import type { z } from 'zod';
import type { FriendDestinationDetail, FriendTrip, TripCreated } from '@wayfarer/contracts';

/**
 * The part of trips' `trip.created` (and `trip.updated`) payload a friend's view keeps, as
 * contracts' event schema infers it (one definition: a field trips adds is seen here).
 */
export type TripCreatedPayload = Pick<
  z.infer<typeof TripCreated.payload>,
  'tripId' | 'name' | 'startDate' | 'endDate' | 'destinations'
>;

/** A friend's trip with every photo of each destination: what social keeps of the event. */
export interface FriendTripDoc extends Omit<FriendTrip, 'destinations'> {
  destinations: FriendDestinationDetail[];
}

/**
 * A trip as friends see it, from the event trips published: `_id` for ids, the story's preview
 * as `story`, every photo URL as trips named it (`doc`, read one destination at a time when a
 * pin opens), and the list's `summary` (contracts' FriendTrip: at most the first photo), kept
 * ready so `GET /api/friends` joins stored text.
 */
export function friendTrip(payload: TripCreatedPayload): {
  doc: FriendTripDoc;
  summary: FriendTrip;
} {
  const doc: FriendTripDoc = {
    _id: payload.tripId,
    name: payload.name,
    startDate: payload.startDate,
    endDate: payload.endDate,
    destinations: payload.destinations.map((d) => ({
      _id: d.id,
      name: d.name,
      latitude: d.latitude,
      longitude: d.longitude,
      startDate: d.startDate,
      endDate: d.endDate,
      photos: [...d.photos],
      story: d.storyPreview,
    })),
  };
  return { doc, summary: summariseTrip(doc) };
}

/** The list's trip: each destination with at most its first photo and no story. */
export function summariseTrip(doc: FriendTripDoc): FriendTrip {
  return {
    ...doc,
    destinations: doc.destinations.map(({ story: _story, ...d }) => ({
      ...d,
      photos: d.photos.slice(0, 1),
    })),
  };
}
