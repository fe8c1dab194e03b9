import { z } from 'zod';
import { defineEvent, Topics } from './events';
import { plainText } from './text';

/** Limits of `POST /api/trips`, shared by the client and the trips service. */
export const TripLimits = {
  nameMax: 120,
  destinationsMax: 20,
  destinationNameMax: 200,
  storyMax: 10_000,
  /** Story preview length. */
  storyPreview: 100,
  photosPerDestinationMax: 10,
  photosPerTripMax: 40,
  photoMaxBytes: 15 * 1024 * 1024,
  /** Total bytes of all photos of one trip (what the service refuses with 413 beyond). */
  photosTotalMaxBytes: 100 * 1024 * 1024,
} as const;

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * True when `s` (`YYYY-MM-DD`, optionally followed by an ISO time) names a day of the calendar:
 * the date read back from `Date.UTC` must be the same year, month and day (so `2026-02-30`,
 * which `Date.parse` turns into 2 March, is not one).
 */
export function isCalendarDate(s: string): boolean {
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear does not
  date.setUTCFullYear(year);
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** `YYYY-MM-DD` (the spec's date inputs); also accepts a full ISO timestamp and keeps its date. */
export const DateOnly = plainText()
  .trim()
  .regex(ISO_DATE, 'must be a date (YYYY-MM-DD)')
  .refine(isCalendarDate, 'must be a real date')
  .transform((s) => s.slice(0, 10));

/**
 * A plain decimal number as text: optional sign, digits, optional fraction. No hex (`0x10`),
 * binary, exponent, `Infinity`, blanks or thousands separators, which `Number()` would read.
 */
export const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

export const isDecimalNumber = (s: string): boolean => DECIMAL_NUMBER.test(s.trim());

/**
 * A coordinate: a finite number, or its text as a plain decimal (form fields are text); any
 * other text stays text and is refused.
 */
const coordinate = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && isDecimalNumber(value) ? Number(value) : value),
    z
      .number({ error: 'must be a decimal number' })
      .min(min, `must be between ${min} and ${max}`)
      .max(max, `must be between ${min} and ${max}`),
  );

export const Latitude = coordinate(-90, 90);
export const Longitude = coordinate(-180, 180);

/** What the trips service answers about dates, and the add-trip form shows before sending. */
export const TripDateMessages = {
  endBeforeStart: 'The end date must be on or after the start date.',
} as const;

/**
 * Whether a range ends before it starts (`YYYY-MM-DD` dates compare as text). The spec's own
 * service did not check; a trip or destination ending before it starts is refused.
 */
export const endsBeforeStart = (range: { startDate: string; endDate: string }): boolean =>
  range.endDate.slice(0, 10) < range.startDate.slice(0, 10);

/** The order check of a parsed range: run only once both dates are real ones. */
const endNotBeforeStart = {
  check: (range: { startDate: string; endDate: string }) => !endsBeforeStart(range),
  params: {
    message: TripDateMessages.endBeforeStart,
    path: ['endDate'],
    when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0,
  },
};

/**
 * Who may see a trip besides its owner: its owner's friends (`friends`) or nobody (`private`).
 * Trips' events carry it once trips has per-trip privacy; absent means `friends` (every trip
 * before it). Friends' screens (the feed, notifications) never show a private trip.
 */
export const TripVisibility = z.enum(['friends', 'private']);
export type TripVisibility = z.infer<typeof TripVisibility>;

/** A trip's visibility as its event says it (`friends` when the event has none). */
export const visibilityOf = (payload: { visibility?: TripVisibility }): TripVisibility =>
  payload.visibility ?? 'friends';

/** One `destinations[i]` group of the multipart form (text fields; photos are files). */
export const DestinationInput = z
  .object({
    name: plainText()
      .trim()
      .min(1, 'Destination name is required.')
      .max(TripLimits.destinationNameMax),
    startDate: DateOnly,
    endDate: DateOnly,
    latitude: Latitude,
    longitude: Longitude,
    story: plainText('multiline').max(TripLimits.storyMax).default(''),
  })
  .refine(endNotBeforeStart.check, endNotBeforeStart.params);
export type DestinationInput = z.infer<typeof DestinationInput>;

/** The text part of `POST /api/trips` once the multipart fields are grouped. */
export const TripInput = z
  .object({
    name: plainText().trim().max(TripLimits.nameMax).default(''),
    startDate: DateOnly,
    endDate: DateOnly,
    destinations: z.array(DestinationInput).max(TripLimits.destinationsMax),
    /** The multipart field `visibility` (absent: `friends`, what the spec does). */
    visibility: TripVisibility.default('friends'),
  })
  .refine(endNotBeforeStart.check, endNotBeforeStart.params);
export type TripInput = z.infer<typeof TripInput>;

/** What every view of a saved destination has (owner's, friend's, share link's): where, when. */
export const DestinationPlace = z.object({
  _id: z.string(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  startDate: z.string(),
  endDate: z.string(),
});

/** A destination as the API answers it. */
export const Destination = DestinationPlace.extend({
  photos: z.array(z.string()),
  story: z.string(),
});
export type Destination = z.infer<typeof Destination>;

export const Trip = z.object({
  _id: z.string(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  destinations: z.array(Destination),
  /** The trips service always answers it (`friends` or `private`). */
  visibility: TripVisibility.optional(),
});
export type Trip = z.infer<typeof Trip>;

/**
 * One trip of `GET /api/mytrips`: what the trips list and the map need, with the spec's field
 * names. The same shape as `Trip`, but each destination's `story` is its preview
 * (`storyPreview`: 100 characters then `...`) and `photos` holds at most its first photo (the
 * list's thumbnail); the full story and every photo come with `GET /api/trips/{id}`.
 */
export const TripSummaryDestination = Destination.extend({
  photos: z.array(z.string()).max(1),
  story: z.string().max(TripLimits.storyPreview + 3),
});
export type TripSummaryDestination = z.infer<typeof TripSummaryDestination>;

export const TripSummary = Trip.extend({ destinations: z.array(TripSummaryDestination) });
export type TripSummary = z.infer<typeof TripSummary>;

/**
 * A photo URL with this query parameter (`/api/photos/<trip>/<photo>?pending=1`) is one whose
 * display variant is still being made: it serves the stripped original meanwhile, uncached, and
 * the trip answers the plain URL once the variant is ready (a client polls the trip to switch).
 */
export const PENDING_PHOTO_QUERY = 'pending=1';

export function isPendingPhotoUrl(url: string): boolean {
  const query = url.split('?')[1];
  return query !== undefined && query.split('&').includes(PENDING_PHOTO_QUERY);
}

/** Cuts a story for previews: 100 characters then an ellipsis. */
export function storyPreview(story: string, max: number = TripLimits.storyPreview): string {
  // no more code points than UTF-16 units: a story this short is whole (the common case is
  // answered without walking a long story's code points)
  if (story.length <= max) return story;
  let units = 0;
  let points = 0;
  for (const point of story) {
    if (points === max) return `${story.slice(0, units)}...`;
    units += point.length;
    points++;
  }
  return story;
}

/** A destination as trips' events carry it (created, updated, deleted). */
export const DestinationSummary = z.object({
  id: z.string(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  startDate: z.string(),
  endDate: z.string(),
  photos: z.array(z.string()),
  storyPreview: z.string(),
});

export const TripCreated = defineEvent({
  topic: Topics.tripsTrip,
  type: 'trip.created',
  version: 1,
  payload: z.object({
    tripId: z.string(),
    ownerId: z.string(),
    name: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    destinations: z.array(DestinationSummary),
    visibility: TripVisibility.optional(),
  }),
});

export const TripDeleted = defineEvent({
  topic: Topics.tripsTrip,
  type: 'trip.deleted',
  version: 1,
  payload: z.object({
    tripId: z.string(),
    ownerId: z.string(),
    destinations: z.array(DestinationSummary),
  }),
});

/**
 * A trip's version: 1 when it is created, one more with every change (`PATCH /api/trips/{id}`,
 * a photo added or removed). The API names it in the `ETag` of every answer holding the trip
 * (`trip-edits.ts`), and `trip.updated` carries it, so a projection can ignore an older update
 * arriving after a newer one.
 */
export const TRIP_FIRST_VERSION = 1;

/**
 * One change to a trip: its state after the change, whole, so a projection can be
 * rebuilt from the latest update alone, and what changed in its destinations:
 * - `destinations`: every destination after the change, in order (ids, names, coordinates,
 *   dates, photo URLs, story preview), as `trip.created` carries them;
 * - `addedDestinationIds`: destinations new in this change;
 * - `movedDestinationIds`: kept destinations whose coordinates changed (a new place);
 * - `removedDestinationIds`: destinations the change took away (their journals go with them);
 * - `version`: the trip's version after the change (`TRIP_FIRST_VERSION` + number of changes).
 * Keyed by the trip id, like every event of the trip, so a trip's events stay in order.
 */
export const TripUpdated = defineEvent({
  topic: Topics.tripsTrip,
  type: 'trip.updated',
  version: 1,
  payload: z.object({
    tripId: z.string(),
    ownerId: z.string(),
    version: z
      .number()
      .int()
      .min(TRIP_FIRST_VERSION + 1),
    name: z.string(),
    startDate: z.string(),
    endDate: z.string(),
    destinations: z.array(DestinationSummary),
    addedDestinationIds: z.array(z.string()),
    movedDestinationIds: z.array(z.string()),
    removedDestinationIds: z.array(z.string()),
    /** The trip's visibility after the change (`TripVisibility`; absent: `friends`). */
    visibility: TripVisibility.optional(),
  }),
});
