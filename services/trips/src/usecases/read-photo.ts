import { NotFoundError } from '../domain/errors';
import { isPhotoId, servedPhoto, type ServedPhoto } from '../domain/trip';
import { readableTrip, type ReadTripDeps } from './read-trip';

export type ReadPhotoDeps = ReadTripDeps;

export type ReadablePhoto = ServedPhoto;

/**
 * The variant a photo URL serves: the display variant, or while it is being made the stripped
 * original (never the upload's own bytes: both were re-encoded without metadata). For those
 * who may read the trip (`readableTrip`: the owner, a friend when the trip is `friends`).
 * Anyone else, a malformed id, an unknown or deleted trip or photo: the same 404 (photo not
 * found), so a stranger cannot tell whether a trip exists.
 */
export async function readablePhoto(
  deps: ReadPhotoDeps,
  userId: string,
  tripId: string,
  photoId: string,
): Promise<ReadablePhoto> {
  if (!isPhotoId(photoId)) throw new NotFoundError('photo');
  try {
    return servedPhoto(await readableTrip(deps, userId, tripId), photoId);
  } catch (err) {
    throw err instanceof NotFoundError ? new NotFoundError('photo') : err;
  }
}
