import {
  SharePaths,
  type ShareLink,
  type ShareLinkInput,
  type SharedTrip,
} from '@wayfarer/contracts';
import { ApiError, apiFetch } from '../api/client';

export type { ShareLink, SharedDestination, SharedTrip } from '@wayfarer/contracts';

/**
 * The share link calls: the owner's (`/api/trips/{id}/share`, with the session) and
 * the public read of a link (`GET /api/shared/{token}`, no session needed).
 */

const sharePath = (tripId: string) => `/api/trips/${encodeURIComponent(tripId)}/share`;

/** `GET /api/trips/{id}/share`: the trip's live link, or null when it has none (404). */
export async function fetchShareLink(
  tripId: string,
  signal?: AbortSignal,
): Promise<ShareLink | null> {
  try {
    return await apiFetch<ShareLink>(sharePath(tripId), { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** `POST /api/trips/{id}/share`: a new link (it replaces a live one: a new token). */
export function createShareLink(tripId: string, input: ShareLinkInput): Promise<ShareLink> {
  return apiFetch<ShareLink>(sharePath(tripId), { method: 'POST', json: input });
}

/** `DELETE /api/trips/{id}/share`: the link stops working; one already gone (404) is fine. */
export async function revokeShareLink(tripId: string): Promise<void> {
  try {
    await apiFetch(sharePath(tripId), { method: 'DELETE' });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
}

/**
 * `GET /api/shared/{token}`: the trip as a visitor may see it; null when the link is unknown,
 * revoked or expired (404). The route is public: the page needs no session.
 */
export async function fetchSharedTrip(
  token: string,
  signal?: AbortSignal,
): Promise<SharedTrip | null> {
  try {
    return await apiFetch<SharedTrip>(SharePaths.api(encodeURIComponent(token)), { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
