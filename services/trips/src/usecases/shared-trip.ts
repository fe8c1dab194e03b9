import type { SharedTrip } from '@wayfarer/contracts';
import { NotFoundError } from '../domain/errors';
import { checkSharedLink, sharedTokenHash, toSharedTrip, type ShareLinkDoc } from '../domain/share';
import { isPhotoId, servedPhoto, type ServedPhoto } from '../domain/trip';
import type { SharedTripRead, TripsStore } from '../store/trips';

export interface SharedTripDeps {
  trips: TripsStore;
  now: () => Date;
  /** Whether an account is closed (service-kit `AccessFences`, written before auth answered). */
  fences: { isClosed(userId: string): Promise<boolean> };
}

/**
 * The one check of a visitor's link, for every public read (`GET /api/shared/{token}` and its
 * photos): the token well formed, the live trip holding its link found by the token's hash only
 * (one read: the link lives in the trip), the link live now (`domain/share.ts`
 * `checkSharedLink`), its owner's account not closed (the fence: a closed account's links end
 * when the closing is answered, before its erasure reaches trips). NotFoundError('shared') for
 * anything else: malformed, unknown, revoked, replaced and expired links are answered alike. `stories`: read the trip's journal texts too.
 */
export async function openSharedLink(
  deps: SharedTripDeps,
  token: string,
  options: { stories: boolean },
): Promise<{ link: ShareLinkDoc; trip: SharedTripRead }> {
  const tokenHash = sharedTokenHash(token);
  const trip = await deps.trips.shared.findShared(tokenHash, options);
  const open = checkSharedLink(trip, tokenHash, deps.now());
  if (await deps.fences.isClosed(open.trip.ownerId)) throw new NotFoundError('shared');
  return open;
}

/** `GET /api/shared/{token}`: the trip as the link shows it (journal texts if it includes stories). */
export async function readSharedTrip(deps: SharedTripDeps, token: string): Promise<SharedTrip> {
  const { link, trip } = await openSharedLink(deps, token, { stories: true });
  return toSharedTrip(trip, link);
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
  const { trip } = await openSharedLink(deps, token, { stories: false });
  try {
    if (!isPhotoId(photoId)) throw new NotFoundError('photo');
    return servedPhoto(trip, photoId);
  } catch (err) {
    throw err instanceof NotFoundError ? new NotFoundError('shared') : err;
  }
}
