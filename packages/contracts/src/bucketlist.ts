import { z } from 'zod';
import { defineEvent, Topics } from './events';
import { plainText } from './text';
import { Latitude, Longitude } from './trips';

/** Limits of the bucket list and itinerary calls, shared by the client and the service. */
export const BucketListLimits = {
  /** A place's text (the autocomplete's address); a 300-character place is refused. */
  placeMax: 200,
  descriptionMax: 1_000,
  /** Items of one itinerary (`POST /api/itinerary` replaces the whole list). */
  itineraryItemsMax: 100,
  itineraryItemMax: 500,
} as const;

/**
 * A bucket-list place counts as visited when one of its owner's trips has a destination at most
 * this far from it (great-circle distance): a city and its surroundings, not the next city.
 */
export const VISIT_RADIUS_KM = 25;

/** The trip that ticked a place off (the screen's 'visited on <trip name>' line). */
export const VisitedByTrip = z.object({ tripId: z.string(), name: z.string() });
export type VisitedByTrip = z.infer<typeof VisitedByTrip>;

/**
 * A bucket-list item as the API answers it, plus its history: when it was
 * visited (ticked off, or travelled to) and, when a trip did it, which trip.
 */
export const BucketListItem = z.object({
  _id: z.string(),
  place: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  isVisited: z.boolean(),
  description: z.string().optional(),
  /** ISO timestamp of the visit; absent while unvisited. */
  visitedAt: z.string().optional(),
  /** Absent when the owner ticked the place off by hand. */
  visitedByTrip: VisitedByTrip.optional(),
});
export type BucketListItem = z.infer<typeof BucketListItem>;

/** `GET /api/bucketlist`: every item of the caller, visited ones included (the client drops them). */
export const BucketListResponse = z.array(BucketListItem);
export type BucketListResponse = z.infer<typeof BucketListResponse>;

/** `POST /api/bucketlist` body: `{place, latitude, longitude, isVisited: false}`. */
export const NewBucketListItem = z.object({
  place: plainText('line', { error: 'Place is required.' })
    .trim()
    .min(1, 'Place is required.')
    .max(
      BucketListLimits.placeMax,
      `Place must be at most ${BucketListLimits.placeMax} characters.`,
    ),
  latitude: Latitude,
  longitude: Longitude,
  isVisited: z.literal(false, { error: 'A new place cannot already be visited.' }).optional(),
  description: plainText('multiline')
    .trim()
    .max(
      BucketListLimits.descriptionMax,
      `Description must be at most ${BucketListLimits.descriptionMax} characters.`,
    )
    .optional(),
});
export type NewBucketListItem = z.infer<typeof NewBucketListItem>;

/** `POST /api/bucketlist` answer: the created item. */
export const BucketListItemResponse = z.object({ data: BucketListItem });
export type BucketListItemResponse = z.infer<typeof BucketListItemResponse>;

/** `DELETE /api/bucketlist/{id}` answer: the item, now visited (kept, not erased). */
export const BucketListVisitResponse = z.object({ message: z.string(), data: BucketListItem });
export type BucketListVisitResponse = z.infer<typeof BucketListVisitResponse>;

/** One itinerary entry: trimmed, non-empty text. */
export const ItineraryEntry = plainText('line', { error: 'Each itinerary item must be text.' })
  .trim()
  .min(1, 'An itinerary item cannot be empty.')
  .max(
    BucketListLimits.itineraryItemMax,
    `An itinerary item must be at most ${BucketListLimits.itineraryItemMax} characters.`,
  );

/** `POST /api/itinerary` body: the full list, replacing the saved one. */
export const ItineraryInput = z.object({
  bucketListId: plainText('line', { error: 'bucketListId is required.' })
    .trim()
    .min(1, 'bucketListId is required.')
    .max(100, 'bucketListId is too long.'),
  itinerary: z
    .array(ItineraryEntry, { error: 'The itinerary must be a list of strings.' })
    .max(
      BucketListLimits.itineraryItemsMax,
      `An itinerary holds at most ${BucketListLimits.itineraryItemsMax} items.`,
    ),
});
export type ItineraryInput = z.infer<typeof ItineraryInput>;

/** `GET /api/itinerary/{bucketListId}` and `POST /api/itinerary` answer. */
export const ItineraryResponse = z.object({ itinerary: z.array(z.string()) });
export type ItineraryResponse = z.infer<typeof ItineraryResponse>;

/** Every error answer of the service (`{error, message}`; the client shows `message`). */
export const BucketListError = z.object({ message: z.string() });
export type BucketListError = z.infer<typeof BucketListError>;

/** What the service answers, and the screen may show. */
export const BucketListMessages = {
  notFound: 'Bucket list item not found.',
  visited: 'Place marked as visited.',
} as const;

/*
 * Events on Topics.bucketlistItem, keyed by the item id. No service consumes them yet: every
 * change of an item is published, so that a service showing a traveller's places (as social's
 * friends view does for trips) builds its read model from them instead of calling bucketlist.
 * Each is published once per change, through the service's outbox.
 */

export const BucketListItemAdded = defineEvent({
  topic: Topics.bucketlistItem,
  type: 'bucketlist.item.added',
  version: 1,
  payload: z.object({
    itemId: z.string(),
    ownerId: z.string(),
    place: z.string(),
    latitude: z.number(),
    longitude: z.number(),
  }),
});

/** The owner ticked the place off (`visitedByTrip` absent) or travelled there. */
export const BucketListItemVisited = defineEvent({
  topic: Topics.bucketlistItem,
  type: 'bucketlist.item.visited',
  version: 1,
  payload: z.object({
    itemId: z.string(),
    ownerId: z.string(),
    visitedAt: z.string(),
    visitedByTrip: VisitedByTrip.optional(),
  }),
});

export const BucketListItinerarySaved = defineEvent({
  topic: Topics.bucketlistItem,
  type: 'bucketlist.itinerary.saved',
  version: 1,
  payload: z.object({
    itemId: z.string(),
    ownerId: z.string(),
    itinerary: z.array(z.string()),
  }),
});
