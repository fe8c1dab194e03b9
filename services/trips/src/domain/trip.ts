import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import {
  PENDING_PHOTO_QUERY,
  storyPreview,
  type Destination,
  type Trip,
  type TripInput,
  type TripSummary,
} from '@wayfarer/contracts';
import type { WithIdempotency, WithOutbox } from '@wayfarer/service-kit/mongo';
import type { ImageType } from '@wayfarer/storage/image';

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
 * Version of how a trip's `summaryJson` is made: bump it when contracts' `TripSummary` or
 * `tripSummaryJson` changes, and every trip gets its summary made again at the next start
 * (`TripsRepo.init`; until then the list makes an outdated one at read time).
 */
export const SUMMARY_VERSION = 1;

/** A trip as stored: the aggregate, with its pending events in `outbox`. */
/**
 * A trip. `idempotency` (service-kit `WithIdempotency`) is the `Idempotency-Key` of the
 * `POST /api/trips` that created it, with its answer, written by the insert itself (24 h).
 */
export interface TripDoc extends WithOutbox, WithIdempotency {
  _id: string;
  ownerId: string;
  name: string;
  startDate: string;
  endDate: string;
  destinations: DestinationDoc[];
  /**
   * The trip as `GET /api/mytrips` answers it (`tripSummaryJson`: contracts' `TripSummary`
   * with its photos' plain URLs), as UTF-8 JSON bytes, made when the trip is created: a trip
   * never changes (only its photos' display variants are recorded; which are pending is
   * `pendingVariants`). The list reads this one field per trip and sends it as it is:
   * projecting the destinations' fields out of the document (nested array paths), decoding
   * them and encoding them again as JSON were most of its time.
   * Trips stored before it was kept, or with another `summaryVersion`, get it at start.
   */
  summaryJson: Buffer;
  /** The `SUMMARY_VERSION` `summaryJson` was made with. */
  summaryVersion: number;
  createdAt: Date;
  deletedAt: Date | null;
  /**
   * Ids of the photos whose display variant is still to be made; absent when none is. Kept in
   * the trip document so a crash loses none: the janitor resumes them on start.
   */
  pendingVariants?: string[];
}

/** What `GET /api/mytrips` reads of a trip (store's summary projection). */
export type TripSummaryDoc = Pick<TripDoc, '_id' | 'summaryJson' | 'pendingVariants'>;

const OBJECT_ID = /^[0-9a-f]{24}$/;
const PHOTO_ID = /^[0-9a-f]{32}$/;

/** A new trip or destination id: ObjectId hex (24 characters, time-ordered). */
export function newId(): string {
  return new ObjectId().toHexString();
}

export function newPhotoId(): string {
  return randomBytes(16).toString('hex');
}

/** Ids are only ones we could have made: anything else is "not found" without a query. */
export const isTripId = (id: string): boolean => OBJECT_ID.test(id);
export const isPhotoId = (id: string): boolean => PHOTO_ID.test(id);

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

/** The trip id of a top-level prefix of the bucket, or null when it is not one we make. */
export function tripIdOfPrefix(prefix: string): string | null {
  const id = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  return isTripId(id) ? id : null;
}

/** When a trip id was made (an ObjectId holds its creation second). */
export const tripIdTime = (tripId: string): Date => new ObjectId(tripId).getTimestamp();

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

/** The trip document for validated input, with ids already chosen and photos stored. */
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
  const trip = {
    name: input.name,
    startDate: input.startDate,
    endDate: input.endDate,
    destinations: input.destinations.map((d, i) => ({
      _id: destinationIds[i]!,
      name: d.name,
      latitude: d.latitude,
      longitude: d.longitude,
      startDate: d.startDate,
      endDate: d.endDate,
      story: d.story,
      photos: photos[i] ?? [],
    })),
  };
  return {
    _id: id,
    ownerId,
    ...trip,
    summaryJson: tripSummaryJson({ _id: id, ...trip }),
    summaryVersion: SUMMARY_VERSION,
    createdAt: now,
    deletedAt: null,
    ...(pending.length > 0 ? { pendingVariants: pending } : {}),
    outbox: [],
  };
}

export function toApiDestination(tripId: string, d: DestinationDoc): Destination {
  return {
    _id: d._id,
    name: d.name,
    latitude: d.latitude,
    longitude: d.longitude,
    startDate: d.startDate,
    endDate: d.endDate,
    photos: d.photos.map((p) => photoUrl(tripId, p.id, p.display === null)),
    story: d.story,
  };
}

/** The trip as the API answers it (spec section 3): no owner, no storage keys, no outbox. */
export function toApiTrip(doc: TripDoc): Trip {
  return {
    _id: doc._id,
    name: doc.name,
    startDate: doc.startDate,
    endDate: doc.endDate,
    destinations: doc.destinations.map((d) => toApiDestination(doc._id, d)),
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
    '_id' | 'name' | 'startDate' | 'endDate' | 'destinations' | 'pendingVariants'
  >,
): TripSummary {
  const pending = new Set(trip.pendingVariants ?? []);
  return {
    _id: trip._id,
    name: trip.name,
    startDate: trip.startDate,
    endDate: trip.endDate,
    destinations: trip.destinations.map((d) => ({
      _id: d._id,
      name: d.name,
      latitude: d.latitude,
      longitude: d.longitude,
      startDate: d.startDate,
      endDate: d.endDate,
      photos: d.photos.slice(0, 1).map((p) => photoUrl(trip._id, p.id, pending.has(p.id))),
      story: storyPreview(d.story),
    })),
  };
}

/**
 * The trip's stored `summaryJson`: its `TripSummary` with every photo named by its plain URL, as
 * UTF-8 JSON (kept as bytes: the list sends them as they are, neither decoded nor encoded).
 */
export function tripSummaryJson(
  trip: Pick<TripDoc, '_id' | 'name' | 'startDate' | 'endDate' | 'destinations'>,
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
