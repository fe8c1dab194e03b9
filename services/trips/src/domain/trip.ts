import {
  PENDING_PHOTO_QUERY,
  storyPreview,
  TRIP_FIRST_VERSION,
  type Destination,
  type Trip,
  type TripInput,
  type TripSummary,
  type TripVisibility,
} from '@wayfarer/contracts';
import type { ImageType } from '@wayfarer/storage/image';
import { NotFoundError } from './errors';
import { isTripId } from './ids';

export { isPhotoId, isTripId, newId, newPhotoId, tripIdTime } from './ids';

/** Public path prefix under which photos are served (through the gateway, session required). */
export const PHOTO_PATH = '/api/photos';

/** One stored file of a photo (an S3 object). */
export interface StoredVariant {
  key: string;
  contentType: string;
  bytes: number;
  width?: number;
  height?: number;
}

export interface PhotoDoc {
  id: string;
  /**
   * Full size, re-encoded upright without metadata (storage's pipeline) before the trip was
   * answered; what the photo URL serves until the display variant is ready.
   */
  original: StoredVariant;
  /**
   * Resized WebP made from the original after the trip was answered: what the photo URL
   * serves. Null while it is being made (its id is then in the trip's `pendingVariants`).
   */
  display: StoredVariant | null;
}

export interface DestinationDoc {
  _id: string;
  name: string;
  latitude: number;
  longitude: number;
  startDate: string;
  endDate: string;
  story: string;
  photos: PhotoDoc[];
}

/**
 * A trip: the aggregate, as the domain knows it (the store keeps more beside it: its pending
 * events, the list's stored summary, the keys of the requests that wrote it).
 */
export interface TripDoc {
  _id: string;
  ownerId: string;
  name: string;
  startDate: string;
  endDate: string;
  destinations: DestinationDoc[];
  /**
   * Who besides the owner may see it: the owner's friends (`friends`, the default)
   * or nobody (`private`); the rule is `domain/access.ts`. Stored on every trip (trips stored
   * before it get `friends` at start: `TripsStore.init`).
   */
  visibility: TripVisibility;
  /**
   * `TRIP_FIRST_VERSION` when created, one more with every change (an edit, a photo added or
   * removed): what `ETag` / `If-Match` name, and `trip.updated` carries. Not changed by a
   * display variant being recorded (the trip's content is the same).
   */
  version: number;
  createdAt: Date;
  deletedAt: Date | null;
  /**
   * Ids of the photos whose display variant is still to be made; absent when none is. Kept in
   * the trip document so a crash loses none: the janitor resumes them on start.
   */
  pendingVariants?: string[];
}

/** What `GET /api/mytrips` reads of a trip: its summary (JSON bytes, made by the store). */
export interface TripSummaryDoc extends Pick<TripDoc, '_id' | 'pendingVariants'> {
  /** `tripSummaryJson` of the trip, as stored. */
  summaryJson: Buffer;
}

/**
 * Object keys of a photo's variants, by the type each was encoded as:
 * `<tripId>/<photoId>/original.<ext>` and `<tripId>/<photoId>/display.<ext>` (WebP today).
 */
export function photoKeys(
  tripId: string,
  photoId: string,
  original: ImageType,
  display: ImageType,
): { original: string; display: string } {
  return {
    original: `${tripId}/${photoId}/original.${original.ext}`,
    display: `${tripId}/${photoId}/display.${display.ext}`,
  };
}

/** The prefix under which all of a trip's objects live. */
export const tripPrefix = (tripId: string): string => `${tripId}/`;

/** The prefix under which all of a photo's objects (its variants) live. */
export const photoPrefix = (tripId: string, photoId: string): string =>
  `${tripPrefix(tripId)}${photoId}/`;

/** The trip id of a top-level prefix of the bucket, or null when it is not one we make. */
export function tripIdOfPrefix(prefix: string): string | null {
  const id = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return isTripId(id) ? id : null;
}

/**
 * The URL of a photo; `pending` (its display variant is not made yet) adds contracts'
 * PENDING_PHOTO_QUERY, so the URL changes when the variant is ready and a client showing it
 * loads the variant (the pending URL is answered uncached).
 */
export function photoUrl(tripId: string, photoId: string, pending = false): string {
  const url = `${PHOTO_PATH}/${tripId}/${photoId}`;
  return pending ? `${url}?${PENDING_PHOTO_QUERY}` : url;
}

export function findPhoto(trip: Pick<TripDoc, 'destinations'>, photoId: string): PhotoDoc | null {
  for (const d of trip.destinations) {
    const photo = d.photos.find((p) => p.id === photoId);
    if (photo) return photo;
  }
  return null;
}

/** What a photo URL serves, and whether it is the final answer (cacheable) or a stand-in. */
export interface ServedPhoto {
  variant: StoredVariant;
  /** False while the display variant is being made: the stripped original stands in. */
  final: boolean;
}

/**
 * What serving `photoId` of `trip` sends: its display variant, or while it is being made its
 * stripped original (never the upload's own bytes). NotFoundError when the trip has no such
 * photo.
 */
export function servedPhoto(trip: Pick<TripDoc, 'destinations'>, photoId: string): ServedPhoto {
  const photo = findPhoto(trip, photoId);
  if (!photo) throw new NotFoundError('photo');
  return photo.display
    ? { variant: photo.display, final: true }
    : { variant: photo.original, final: false };
}

/** A destination from its validated input, its id and its stored photos. */
export function destinationDoc(
  id: string,
  input: TripInput['destinations'][number],
  photos: PhotoDoc[],
): DestinationDoc {
  return {
    _id: id,
    name: input.name,
    latitude: input.latitude,
    longitude: input.longitude,
    startDate: input.startDate,
    endDate: input.endDate,
    story: input.story,
    photos,
  };
}

/** A new trip from validated input, with ids already chosen and photos stored. */
export function newTripDoc(options: {
  id: string;
  ownerId: string;
  input: TripInput;
  destinationIds: string[];
  photos: PhotoDoc[][];
  now: Date;
}): TripDoc {
  const { id, ownerId, input, destinationIds, photos, now } = options;
  const pending = photos.flat().flatMap((p) => (p.display ? [] : [p.id]));
  return {
    _id: id,
    ownerId,
    name: input.name,
    startDate: input.startDate,
    endDate: input.endDate,
    destinations: input.destinations.map((d, i) =>
      destinationDoc(destinationIds[i]!, d, photos[i] ?? []),
    ),
    visibility: input.visibility,
    version: TRIP_FIRST_VERSION,
    createdAt: now,
    deletedAt: null,
    ...(pending.length > 0 ? { pendingVariants: pending } : {}),
  };
}

/** A destination's id, name, place and dates: what every view of it shows (the API, links). */
export function destinationPlace(
  d: Pick<DestinationDoc, '_id' | 'name' | 'latitude' | 'longitude' | 'startDate' | 'endDate'>,
) {
  return {
    _id: d._id,
    name: d.name,
    latitude: d.latitude,
    longitude: d.longitude,
    startDate: d.startDate,
    endDate: d.endDate,
  };
}

export function toApiDestination(tripId: string, d: DestinationDoc): Destination {
  return {
    ...destinationPlace(d),
    photos: d.photos.map((p) => photoUrl(tripId, p.id, p.display === null)),
    story: d.story,
  };
}

/**
 * The trip as the API answers it: no owner, no storage keys, no version (that
 * goes in the answer's `ETag`).
 */
export function toApiTrip(doc: TripDoc): Trip {
  return {
    _id: doc._id,
    name: doc.name,
    startDate: doc.startDate,
    endDate: doc.endDate,
    destinations: doc.destinations.map((d) => toApiDestination(doc._id, d)),
    visibility: doc.visibility,
  };
}

/**
 * A trip as `GET /api/mytrips` answers it (contracts' `TripSummary`): the spec's fields, each
 * destination's `story` cut to its preview and `photos` its first photo only (named pending
 * while its display variant is being made, per `pendingVariants`).
 */
export function toTripSummary(
  trip: Pick<
    TripDoc,
    '_id' | 'name' | 'startDate' | 'endDate' | 'destinations' | 'pendingVariants' | 'visibility'
  >,
): TripSummary {
  const pending = new Set(trip.pendingVariants ?? []);
  return {
    _id: trip._id,
    name: trip.name,
    startDate: trip.startDate,
    endDate: trip.endDate,
    destinations: trip.destinations.map((d) => ({
      ...destinationPlace(d),
      photos: d.photos.slice(0, 1).map((p) => photoUrl(trip._id, p.id, pending.has(p.id))),
      story: storyPreview(d.story),
    })),
    visibility: trip.visibility,
  };
}

/**
 * The trip's stored `summaryJson`: its `TripSummary` with every photo named by its plain URL, as
 * UTF-8 JSON (kept as bytes: the list sends them as they are, neither decoded nor encoded).
 */
export function tripSummaryJson(
  trip: Pick<TripDoc, '_id' | 'name' | 'startDate' | 'endDate' | 'destinations' | 'visibility'>,
): Buffer {
  return Buffer.from(JSON.stringify(toTripSummary({ ...trip, pendingVariants: undefined })));
}

const [OPEN, COMMA, CLOSE] = ['[', ',', ']'].map((c) => Buffer.from(c)) as [Buffer, Buffer, Buffer];

/**
 * The body of `GET /api/mytrips`: the JSON array of the trips' stored summaries, in the given
 * order. A trip whose display variants are not all made yet (`pendingVariants`: seconds after
 * its upload) has its pending photos' URLs named so (`photoUrl`).
 */
export function tripSummariesJson(trips: readonly TripSummaryDoc[]): Buffer {
  const parts: Buffer[] = [OPEN];
  trips.forEach((trip, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(listedSummaryJson(trip));
  });
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

function listedSummaryJson(trip: TripSummaryDoc): Buffer {
  if (!trip.pendingVariants?.length) return trip.summaryJson;
  const pending = new Set(trip.pendingVariants);
  const summary = JSON.parse(trip.summaryJson.toString()) as TripSummary;
  for (const d of summary.destinations) {
    d.photos = d.photos.map((url) => {
      const photoId = url.slice(url.lastIndexOf('/') + 1);
      return pending.has(photoId) ? photoUrl(trip._id, photoId, true) : url;
    });
  }
  return Buffer.from(JSON.stringify(summary));
}

/** Where a photo sits in its trip (indexes into `destinations` and its `photos`). */
export function photoPosition(
  trip: Pick<TripDoc, 'destinations'>,
  photoId: string,
): { destination: number; photo: number } | null {
  for (const [destination, d] of trip.destinations.entries()) {
    const photo = d.photos.findIndex((p) => p.id === photoId);
    if (photo >= 0) return { destination, photo };
  }
  return null;
}
