import type { FriendTrip } from '@wayfarer/contracts';

/** The part of trips' `trip.created` payload a friend's view keeps. */
export interface TripCreatedPayload {
  tripId: string;
  name: string;
  startDate: string;
  endDate: string;
  destinations: readonly {
    id: string;
    name: string;
    latitude: number;
    longitude: number;
    startDate: string;
    endDate: string;
    photos: readonly string[];
    storyPreview: string;
  }[];
}

/**
 * A trip as friends see it (contracts' FriendTrip), from the event trips published: `_id` for
 * ids, the story's preview as `story`, every photo URL as trips named it.
 */
export function friendTrip(payload: TripCreatedPayload): FriendTrip {
  return {
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
}
