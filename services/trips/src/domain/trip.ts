import { randomBytes } from 'node:crypto';
import { ObjectId } from 'mongodb';
import type { Destination, Trip, TripInput } from '@wayfarer/contracts';
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
  /** Full size, re-encoded upright without metadata (storage's pipeline); not served today. */
  original: StoredVariant;
  /** Resized, re-encoded, metadata stripped: what the photo URL serves. */
  display: StoredVariant;
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

export function photoUrl(tripId: string, photoId: string): string {
  return `${PHOTO_PATH}/${tripId}/${photoId}`;
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
      photos: photos[i] ?? [],
    })),
    createdAt: now,
    deletedAt: null,
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
    photos: d.photos.map((p) => photoUrl(tripId, p.id)),
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
