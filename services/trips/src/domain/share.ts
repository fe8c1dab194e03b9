import { createHash } from 'node:crypto';
import {
  isShareToken,
  ShareLimits,
  ShareMessages,
  SharePaths,
  type ShareLink,
  type ShareLinkInput,
  type SharedTrip,
} from '@wayfarer/contracts';
import { InvalidTripError, NotFoundError } from './errors';
import { destinationPlace, type TripDoc } from './trip';

/*
 * Share links (issue 20), pure: a trip's one live link, its token, when it is live, and what a
 * visitor holding it sees. The token is kept (the owner sees the URL again) beside its SHA-256
 * hash, and a link is looked up only by that hash: an index lookup of a fixed-length digest, so
 * how long it takes does not depend on how many characters of a guess are right.
 */

/** A trip's link as stored: `_id` is the trip id (one live link per trip). */
export interface ShareLinkDoc {
  _id: string;
  ownerId: string;
  token: string;
  /** `shareTokenHash(token)`: what a link is found by. */
  tokenHash: string;
  createdAt: Date;
  /** Null: lives until revoked. */
  expiresAt: Date | null;
  includeStories: boolean;
  allowIndexing: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The token of `bytes` random bytes (contracts' `SHARE_TOKEN_BYTES`): base64url, no padding. */
export const shareToken = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');

/** What a link is stored and looked up by: the SHA-256 of its token, hex. */
export const shareTokenHash = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * The expiry a link is created with: none (absent or null), or a time after `now` and at most
 * `ShareLimits.maxExpiryDays` after it; else InvalidTripError with contracts' text.
 */
export function linkExpiry(expiresAt: string | null | undefined, now: Date): Date | null {
  if (expiresAt === undefined || expiresAt === null) return null;
  const at = new Date(expiresAt);
  if (!(at.getTime() > now.getTime())) throw new InvalidTripError(ShareMessages.expiryInPast);
  if (at.getTime() - now.getTime() > ShareLimits.maxExpiryDays * DAY_MS) {
    throw new InvalidTripError(ShareMessages.expiryTooFar);
  }
  return at;
}

/** A new link of `trip` from the owner's choices (`expiresAt` already checked: `linkExpiry`). */
export function newShareLink(options: {
  trip: Pick<TripDoc, '_id' | 'ownerId'>;
  token: string;
  input: ShareLinkInput;
  expiresAt: Date | null;
  now: Date;
}): ShareLinkDoc {
  const { trip, token, input, expiresAt, now } = options;
  return {
    _id: trip._id,
    ownerId: trip.ownerId,
    token,
    tokenHash: shareTokenHash(token),
    createdAt: now,
    expiresAt,
    includeStories: input.includeStories,
    allowIndexing: input.allowIndexing,
  };
}

/** Whether a link works at `now`: not expired (revoked ones are not stored). */
export const isLinkLive = (link: Pick<ShareLinkDoc, 'expiresAt'>, now: Date): boolean =>
  link.expiresAt === null || link.expiresAt.getTime() > now.getTime();

/** The link as its owner sees it (contracts' `ShareLink`). */
export function toApiShareLink(link: ShareLinkDoc): ShareLink {
  return {
    token: link.token,
    url: SharePaths.page(link.token),
    createdAt: link.createdAt.toISOString(),
    expiresAt: link.expiresAt?.toISOString() ?? null,
    includeStories: link.includeStories,
    allowIndexing: link.allowIndexing,
  };
}

/**
 * The one check of a visitor's link: the token well formed, a link found by its hash, live at
 * `now`, its trip live and still its owner's. NotFoundError('shared') for anything else, the
 * same for every case (malformed, unknown, revoked, expired, trip gone).
 */
export function checkSharedLink<T extends Pick<TripDoc, '_id' | 'ownerId'>>(
  found: { link: ShareLinkDoc | null; trip: T | null },
  now: Date,
): { link: ShareLinkDoc; trip: T } {
  const { link, trip } = found;
  if (!link || !isLinkLive(link, now) || !trip) throw new NotFoundError('shared');
  if (trip._id !== link._id || trip.ownerId !== link.ownerId) throw new NotFoundError('shared');
  return { link, trip };
}

/** The hash to look a visitor's token up by; NotFoundError('shared') for a malformed token. */
export function sharedTokenHash(token: string): string {
  if (!isShareToken(token)) throw new NotFoundError('shared');
  return shareTokenHash(token);
}

/**
 * The trip as a visitor holding the link sees it (contracts' `SharedTrip`): name, dates, the
 * destinations with coordinates, dates and photo URLs under the link; each destination's
 * `story` and `journal` (`journals`: its saved journal text, '' when none) only when the owner
 * chose `includeStories`. Never the owner, the trip id or its storage keys.
 */
export function toSharedTrip(
  trip: Pick<TripDoc, 'name' | 'startDate' | 'endDate' | 'destinations'>,
  link: Pick<ShareLinkDoc, 'token' | 'expiresAt' | 'includeStories' | 'allowIndexing'>,
  journals: ReadonlyMap<string, string>,
): SharedTrip {
  return {
    name: trip.name,
    startDate: trip.startDate,
    endDate: trip.endDate,
    destinations: trip.destinations.map((d) => ({
      ...destinationPlace(d),
      photos: d.photos.map((p) => SharePaths.photo(link.token, p.id)),
      ...(link.includeStories ? { story: d.story, journal: journals.get(d._id) ?? '' } : {}),
    })),
    includeStories: link.includeStories,
    allowIndexing: link.allowIndexing,
    expiresAt: link.expiresAt?.toISOString() ?? null,
  };
}
