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
import type { WithOutbox } from '@wayfarer/service-kit/mongo';
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
  /** `storyPreview(story)`, kept so `GET /api/mytrips` reads it with a projection. */
  storyPreview: string;
  photos: PhotoDoc[];
}

/** A trip as stored: the aggregate, with its pending events in `outbox`. */
export interface TripDoc extends WithOutbox {
  _id: string;
  ownerId: string;
  name: string;
  startDate: string;
  endDate: string;
  destinations: DestinationDoc[];
  createdAt: Date;
  deletedAt: Date | null;
  /**
   * Ids of the photos whose display variant is still to be made; absent when none is. Kept in
   * the trip document so a crash loses none: the janitor resumes them on start.
   */
  pendingVariants?: string[];
}

/** What `GET /api/mytrips` reads of a trip (store's summary projection). */
export interface TripSummaryDoc {
  _id: string;
  name: string;
  startDate: string;
  endDate: string;
  pendingVariants?: string[];
  destinations: (Omit<DestinationDoc, 'story' | 'photos' | 'storyPreview'> & {
    /** Absent on trips stored before previews were kept (the store fills them in at start). */
    storyPreview?: string;
    photos: { id: string }[];
  })[];
}

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
  return {
    _id: id,
    ownerId,
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
      storyPreview: storyPreview(d.story),
      photos: photos[i] ?? [],
    })),
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
 * destination's `story` cut to its preview and `photos` its first photo only.
 */
export function toTripSummary(doc: TripSummaryDoc): TripSummary {
  const pending = new Set(doc.pendingVariants ?? []);
  return {
    _id: doc._id,
    name: doc.name,
    startDate: doc.startDate,
    endDate: doc.endDate,
    destinations: doc.destinations.map((d) => ({
      _id: d._id,
      name: d.name,
      latitude: d.latitude,
      longitude: d.longitude,
      startDate: d.startDate,
      endDate: d.endDate,
      photos: d.photos.slice(0, 1).map((p) => photoUrl(doc._id, p.id, pending.has(p.id))),
      story: d.storyPreview ?? '',
    })),
  };
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
