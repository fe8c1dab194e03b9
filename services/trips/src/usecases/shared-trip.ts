import type { SharedTrip } from '@wayfarer/contracts';
import { NotFoundError } from '../domain/errors';
import { checkSharedLink, sharedTokenHash, toSharedTrip, type ShareLinkDoc } from '../domain/share';
import { isPhotoId, servedPhoto, type ServedPhoto } from '../domain/trip';
import type { TripRead, TripsRepo } from '../store/trips';

export interface SharedTripDeps {
  trips: TripsRepo;
  now: () => Date;
}

/**
 * The one check of a visitor's link, for every public read (`GET /api/shared/{token}` and its
 * photos): the token well formed, its link found by the token's hash only, live now, its trip
 * live and its owner's (`domain/share.ts` `checkSharedLink`). NotFoundError('shared') for
 * anything else: malformed, unknown, revoked and expired links are answered alike.
 */
export async function openSharedLink(
  deps: SharedTripDeps,
  token: string,
): Promise<{ link: ShareLinkDoc; trip: TripRead }> {
  const link = await deps.trips.shareLinks.byTokenHash(sharedTokenHash(token));
  const trip = link ? await deps.trips.findLive(link._id) : null;
  return checkSharedLink({ link, trip }, deps.now());
}

/** `GET /api/shared/{token}`: the trip as the link shows it (journal texts if it includes stories). */
export async function readSharedTrip(deps: SharedTripDeps, token: string): Promise<SharedTrip> {
  const { link, trip } = await openSharedLink(deps, token);
  const journals = link.includeStories
    ? await deps.trips.stories.ofDestinations(
        trip.destinations.map((d) => d._id),
        trip.ownerId,
      )
    : new Map<string, string>();
  return toSharedTrip(trip, link, journals);
}

/**
 * `GET /api/shared/{token}/photos/{photoId}`: what the photo's URL serves (as the owner's), only
 * for a photo of the link's trip; anything else is the link's 404.
 */
export async function readSharedPhoto(
  deps: SharedTripDeps,
  token: string,
  photoId: string,
): Promise<ServedPhoto> {
  const { trip } = await openSharedLink(deps, token);
  try {
    if (!isPhotoId(photoId)) throw new NotFoundError('photo');
    return servedPhoto(trip, photoId);
  } catch (err) {
    throw err instanceof NotFoundError ? new NotFoundError('shared') : err;
  }
}
