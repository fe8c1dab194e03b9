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
 * Share links, pure: a trip's one live link, its token, when it is live, and what a
 * visitor holding it sees. The token is kept (the owner sees the URL again) beside its SHA-256
 * hash, and a link is looked up only by that hash: an index lookup of a fixed-length digest, so
 * how long it takes does not depend on how many characters of a guess are right.
 */

/**
 * A trip's live link as stored, inside the trip document (`share`: one live link per trip, so
 * a new one replaces it and a revoke removes it in one write of the trip).
 */
export interface ShareLinkDoc {
  token: string;
  /** `shareTokenHash(token)`: what a link is found by. */
  tokenHash: string;
  createdAt: Date;
  /** Null: lives until revoked. */
  expiresAt: Date | null;
  includeStories: boolean;
  allowIndexing: boolean;
}

/**
 * A destination's journal text as journal last announced it (`journal.saved` with `content`),
 * kept in the trip document by destination id (`stories`), for links that include stories.
 */
export interface JournalStoryDoc {
  content: string;
  /** When journal saved it (the event's `occurredAt`): an older save never replaces it. */
  savedAt: Date;
}

/** A trip's journal texts by destination id (absent: none kept yet). */
export type JournalStories = Readonly<Record<string, Pick<JournalStoryDoc, 'content'>>>;

/** A trip with what a link shows of it besides the trip: its live link and journal texts. */
export interface SharedTripSource extends Pick<
  TripDoc,
  'name' | 'startDate' | 'endDate' | 'destinations'
> {
  share?: ShareLinkDoc;
  stories?: JournalStories;
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

/** A new link from the owner's choices (`expiresAt` already checked: `linkExpiry`). */
export function newShareLink(options: {
  token: string;
  input: ShareLinkInput;
  expiresAt: Date | null;
  now: Date;
}): ShareLinkDoc {
  const { token, input, expiresAt, now } = options;
  return {
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
 * The one check of a visitor's link: a trip (`trip`: found by the store by `tokenHash`), not
 * deleted, whose link has that hash and is live at `now`. NotFoundError('shared') for anything
 * else, the same for every case (unknown, revoked, replaced, expired, trip deleted).
 */
export function checkSharedLink<T extends { share?: ShareLinkDoc } & Pick<TripDoc, 'deletedAt'>>(
  trip: T | null,
  tokenHash: string,
  now: Date,
): { link: ShareLinkDoc; trip: T } {
  const link = trip?.share;
  if (!trip || trip.deletedAt !== null || !link || link.tokenHash !== tokenHash) {
    throw new NotFoundError('shared');
  }
  if (!isLinkLive(link, now)) throw new NotFoundError('shared');
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
 * `story` and `journal` (its kept journal text, `trip.stories`, '' when none) only when the
 * owner chose `includeStories`. Never the owner, the trip id or its storage keys.
 */
export function toSharedTrip(
  trip: Omit<SharedTripSource, 'share'>,
  link: Pick<ShareLinkDoc, 'token' | 'expiresAt' | 'includeStories' | 'allowIndexing'>,
): SharedTrip {
  const { token, includeStories } = link;
  const stories = trip.stories;
  return {
    name: trip.name,
    startDate: trip.startDate,
    endDate: trip.endDate,
    destinations: trip.destinations.map((d) => {
      const place = destinationPlace(d);
      const photos = d.photos.map((p) => SharePaths.photo(token, p.id));
      if (!includeStories) return { ...place, photos };
      const journal = (stories && Object.hasOwn(stories, d._id) && stories[d._id]!.content) || '';
      return { ...place, photos, story: d.story, journal };
    }),
    includeStories,
    allowIndexing: link.allowIndexing,
    expiresAt: link.expiresAt?.toISOString() ?? null,
  };
}
