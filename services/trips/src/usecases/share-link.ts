import { randomBytes } from 'node:crypto';
import { SHARE_TOKEN_BYTES, type ShareLink, type ShareLinkInput } from '@wayfarer/contracts';
import { NotFoundError } from '../domain/errors';
import { isLinkLive, linkExpiry, newShareLink, shareToken, toApiShareLink } from '../domain/share';
import { isTripId } from '../domain/trip';
import type { TripsStore } from '../store/trips';
import { readOwned } from './read-trip';

export interface ShareLinkDeps {
  trips: TripsStore;
  now: () => Date;
}

/**
 * `POST /api/trips/{id}/share`: a new link for the owner's trip (anyone else's, unknown: 404),
 * `SHARE_TOKEN_BYTES` random bytes from the system's CSPRNG as its token, replacing the trip's
 * link if it had one (its token stops working at once). The expiry is checked first (400,
 * nothing changes).
 */
export async function createShareLink(
  deps: ShareLinkDeps,
  ownerId: string,
  tripId: string,
  input: ShareLinkInput,
): Promise<ShareLink> {
  const trip = await readOwned(deps, ownerId, tripId);
  const now = deps.now();
  const expiresAt = linkExpiry(input.expiresAt, now);
  const token = shareToken(randomBytes(SHARE_TOKEN_BYTES));
  const link = newShareLink({ token, input, expiresAt, now });
  // deleted since the read: as if it had not been found
  if (!(await deps.trips.shared.putShareLink(trip._id, ownerId, link)))
    throw new NotFoundError('trip');
  return toApiShareLink(link);
}

/** `GET /api/trips/{id}/share`: the owner's trip's live link; NotFoundError when none. */
export async function readShareLink(
  deps: ShareLinkDeps,
  ownerId: string,
  tripId: string,
): Promise<ShareLink> {
  const found = isTripId(tripId) ? await deps.trips.shared.shareLinkOf(tripId, ownerId) : null;
  if (!found) throw new NotFoundError('trip');
  const link = found.share;
  if (!link || !isLinkLive(link, deps.now())) throw new NotFoundError('share-link');
  return toApiShareLink(link);
}

/**
 * `DELETE /api/trips/{id}/share`: revokes the owner's trip's link (removed from the trip in one
 * write: its token and every photo URL under it stop working at once). NotFoundError when the
 * trip had no live link (an expired one is removed all the same).
 */
export async function revokeShareLink(
  deps: ShareLinkDeps,
  ownerId: string,
  tripId: string,
): Promise<void> {
  const found = isTripId(tripId) ? await deps.trips.shared.revokeShareLink(tripId, ownerId) : null;
  if (!found) throw new NotFoundError('trip');
  const removed = found.share;
  if (!removed || !isLinkLive(removed, deps.now())) throw new NotFoundError('share-link');
}
