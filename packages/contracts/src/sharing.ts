import { z } from 'zod';
import { DestinationPlace } from './trips';

/**
 * Who sees a trip, and links that show one trip to people who are not on Wayfarer.
 * Visibility itself (`TripVisibility`, `friends` | `private`) lives in `trips.ts` beside the
 * events that carry it; this file holds the share links: their token, the owner's API
 * (`POST` / `GET` / `DELETE /api/trips/{id}/share`), the public read (`GET /api/shared/{token}`,
 * `GET /api/shared/{token}/photos/{photoId}`) and the public page (`/s/{token}`).
 */

/** Random bytes in a token: 256 bits (the issue asks for at least 128). */
export const SHARE_TOKEN_BYTES = 32;

/** A token as it appears in URLs: base64url of `SHARE_TOKEN_BYTES` bytes, no padding (43 chars). */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const isShareToken = (s: string): boolean => SHARE_TOKEN_PATTERN.test(s);

/** Where things live: the API prefix (public, no session), the page, and a photo under a link. */
export const SharePaths = {
  apiPrefix: '/api/shared',
  pagePrefix: '/s',
  api: (token: string) => `/api/shared/${token}`,
  page: (token: string) => `/s/${token}`,
  photo: (token: string, photoId: string) => `/api/shared/${token}/photos/${photoId}`,
} as const;

/** Limits of a link: how far ahead an expiry may be set. */
export const ShareLimits = {
  /** At most a year ahead (a link without `expiresAt` lives until revoked). */
  maxExpiryDays: 366,
} as const;

/** Texts the API answers and the screens show (one place, word for word). */
export const ShareMessages = {
  /** `GET /api/shared/{token}` (and its photos) for an unknown, revoked or expired link; the page says it too. */
  linkGone: 'This link no longer works.',
  /** `GET`/`DELETE /api/trips/{id}/share` when the trip has no live link. */
  noLink: 'This trip has no share link.',
  revoked: 'Share link revoked.',
  expiryInPast: 'The expiry must be in the future.',
  expiryTooFar: `The expiry must be within ${ShareLimits.maxExpiryDays} days.`,
} as const;

/**
 * `POST /api/trips/{id}/share` JSON body (all optional). Creating a link replaces the trip's
 * live one (a new token: the old URL stops working).
 * - `expiresAt`: ISO timestamp with offset; absent or null: no expiry;
 * - `includeStories`: the destinations' stories and journals are shown (default false);
 * - `allowIndexing`: search engines may index the page (default false: `noindex`).
 */
export const ShareLinkInput = z
  .object({
    expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
    includeStories: z.boolean().default(false),
    allowIndexing: z.boolean().default(false),
  })
  .strict();
export type ShareLinkInput = z.infer<typeof ShareLinkInput>;

/** A link as its owner sees it (`POST` 201 and `GET /api/trips/{id}/share` 200). */
export const ShareLink = z.object({
  token: z.string(),
  /** Path of the public page (`/s/{token}`); the client prefixes its own origin to copy it. */
  url: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  includeStories: z.boolean(),
  allowIndexing: z.boolean(),
});
export type ShareLink = z.infer<typeof ShareLink>;

/**
 * A destination as a link shows it: no owner, no trip id. `photos` are URLs under the link
 * (`SharePaths.photo`), working without a session for as long as the link lives. `story` (the
 * destination's story) and `journal` (its journal text, '' when none) only when the owner chose
 * `includeStories`; absent otherwise.
 */
export const SharedDestination = DestinationPlace.extend({
  photos: z.array(z.string()),
  story: z.string().optional(),
  journal: z.string().optional(),
});
export type SharedDestination = z.infer<typeof SharedDestination>;

/** `GET /api/shared/{token}`: the trip as a visitor may see it. Never the owner's id or email. */
export const SharedTrip = z.object({
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  destinations: z.array(SharedDestination),
  includeStories: z.boolean(),
  allowIndexing: z.boolean(),
  expiresAt: z.string().nullable(),
});
export type SharedTrip = z.infer<typeof SharedTrip>;
