import { notFound } from '@wayfarer/service-kit';
import { Messages } from '../domain/limits';
import { findPhoto, isPhotoId, isTripId, type StoredVariant } from '../domain/trip';
import type { TripsRepo } from '../store/trips';

export interface ReadPhotoDeps {
  trips: TripsRepo;
  friendships: { areFriends(a: string, b: string): Promise<boolean> };
}

/** What a photo URL serves, and whether it is the final answer (cacheable) or a stand-in. */
export interface ReadablePhoto {
  variant: StoredVariant;
  /** False while the display variant is being made: the stripped original stands in. */
  final: boolean;
}

/**
 * The variant a photo URL serves: the display variant, or while it is being made the stripped
 * original (never the upload's own bytes: both were re-encoded without metadata). For the
 * trip's owner and the owner's friends only. Anyone else, a malformed id, an unknown or deleted
 * trip or photo: the same 404, so a stranger cannot tell whether a trip exists.
 */
export async function readablePhoto(
  deps: ReadPhotoDeps,
  userId: string,
  tripId: string,
  photoId: string,
): Promise<ReadablePhoto> {
  if (!isTripId(tripId) || !isPhotoId(photoId)) throw notFound(Messages.photoNotFound);
  const trip = await deps.trips.findLive(tripId);
  if (!trip) throw notFound(Messages.photoNotFound);
  if (trip.ownerId !== userId && !(await deps.friendships.areFriends(userId, trip.ownerId))) {
    throw notFound(Messages.photoNotFound);
  }
  const photo = findPhoto(trip, photoId);
  if (!photo) throw notFound(Messages.photoNotFound);
  return photo.display
    ? { variant: photo.display, final: true }
    : { variant: photo.original, final: false };
}
