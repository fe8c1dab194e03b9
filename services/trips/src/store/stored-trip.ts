import { isDeepStrictEqual } from 'node:util';
import type { Document } from 'mongodb';
import {
  WITHOUT_IDEMPOTENCY,
  type IdempotencyRecord,
  type OutboxEntry,
  type WithIdempotency,
  type WithOutbox,
} from '@wayfarer/service-kit/mongo';
import { visibilityOf } from '@wayfarer/contracts';
import type { JournalStoryDoc, ShareLinkDoc } from '../domain/share';
import type { TripDoc } from '../domain/trip';

/*
 * A trip as the `trips` collection stores it, and the projections its stores read it with
 * (`TripsStore`, `HiddenTripsStore`, `SharedTripsStore`: one collection, one aggregate).
 */

/**
 * Version of how a trip's `summaryJson` is made: bump it when contracts' `TripSummary` or
 * `tripSummaryJson` changes, and every trip gets its summary made again at the next start
 * (`TripsStore.init`; until then the list makes an outdated one at read time). 2: the trip's
 * `visibility`.
 */
export const SUMMARY_VERSION = 2;

/**
 * A trip as stored: the aggregate (`TripDoc`) with its pending events in `outbox`, and what the
 * store keeps beside it. `idempotency` (service-kit `WithIdempotency`) is the `Idempotency-Key`
 * of the `POST /api/trips` that created it, with its answer, written by the insert itself
 * (24 h); `photoAdd` the same for the latest keyed photo add.
 */
export interface StoredTripDoc extends TripDoc, Omit<WithOutbox, 'deletedAt'>, WithIdempotency {
  /**
   * The trip as `GET /api/mytrips` answers it (`tripSummaryJson`: contracts' `TripSummary`
   * with its photos' plain URLs), as UTF-8 JSON bytes, made by every write of the trip's
   * content (its insert and each change; a display variant recorded does not change it: which
   * photos are pending is `pendingVariants`). The list reads this one field per trip and sends
   * it as it is: projecting the destinations' fields out of the document (nested array
   * paths), decoding them and encoding them again as JSON were most of its time.
   * Trips stored before it was kept, or with another `summaryVersion`, get it at start.
   */
  summaryJson: Buffer;
  /** The `SUMMARY_VERSION` `summaryJson` was made with. */
  summaryVersion: number;
  /**
   * Bumped by every write of `destinations` or `pendingVariants` (a change, a display variant
   * recorded): a change is written only over the state it was computed from (absent on trips
   * written before it: that state is "no rev yet").
   */
  rev?: number;
  /** The `Idempotency-Key` of the latest keyed photo add, with its answer (24 h). */
  photoAdd?: IdempotencyRecord;
  /** Photos a change took away whose objects are still to be removed from the bucket. */
  trashedPhotos?: string[];
  /**
   * The trip's live share link (absent: none), found by a visitor by its token's hash
   * (`share.tokenHash`, unique sparse index). Kept here so a link read is one read of the trip,
   * and a new link, a revoke and the trip's delete are each one write of it. Written with
   * field-level updates that leave `version`, `rev` and the summary alone: it is not part of the
   * owner's trip JSON nor of their list.
   */
  share?: ShareLinkDoc;
  /**
   * Journal texts of the trip's destinations by destination id (`journal.saved`), for
   * links that include stories; a change removing a destination unsets its text in its own
   * update, the trip's delete all of them. Not part of the owner's trip JSON either.
   */
  stories?: Record<string, JournalStoryDoc>;
  /**
   * A trip of an import still running (an import is one unit), stored under
   * `importOwner(importId)` so no read finds it: its `trip.created`, kept here rather than in
   * `outbox` (the relay sees no event of it), and its photos whose display variants are to be
   * made, kept here rather than in `pendingVariants` (no variant is made of it). The import's
   * commit moves both where they belong and gives the trips their owner, in one update of them
   * all (`HiddenTripsStore.reveal`).
   */
  heldOutbox?: OutboxEntry[];
  heldVariants?: string[];
}

/** A trip as read for a change: the aggregate and the `rev` its change is written over. */
export type TripRead = TripDoc & Pick<StoredTripDoc, 'rev'>;

/** A trip as read under its share link: the trip with its link and journal texts. */
export type SharedTripRead = TripRead & Pick<StoredTripDoc, 'share' | 'stories'>;

/**
 * What no read of a whole trip needs: the pending events, the relay's bookkeeping, the list's
 * stored summary, the idempotency records and the trash. Excluded rather than the rest
 * included: the local server projects nested inclusions slowly (see "Benchmarks").
 */
export const BOOKKEEPING = {
  outbox: 0,
  outboxPending: 0,
  outboxClaim: 0,
  summaryJson: 0,
  summaryVersion: 0,
  photoAdd: 0,
  trashedPhotos: 0,
  heldOutbox: 0,
  heldVariants: 0,
  ...WITHOUT_IDEMPOTENCY,
} as const;

/** A trip's fields (`TripRead`): neither its bookkeeping nor its share link and journal texts. */
export const TRIP_FIELDS = { projection: { ...BOOKKEEPING, share: 0, stories: 0 } } as const;

/** A trip as its link shows it (`SharedTripRead`), journal texts included or not. */
export const SHARED_FIELDS = {
  withStories: { projection: BOOKKEEPING },
  withoutStories: { projection: { ...BOOKKEEPING, stories: 0 } },
} as const;

/**
 * What `GET /api/mytrips` reads of a trip: its `summaryJson` (one string: no story, no storage
 * keys, no nested array path to project, nothing to decode into objects), which of its photos
 * are still pending, and what the list is sorted and checked by.
 */
export const SUMMARY = {
  projection: { summaryJson: 1, summaryVersion: 1, pendingVariants: 1, createdAt: 1 },
} as const;

/** What a trip's `summaryJson` is made from (`tripSummaryJson`). */
export const SUMMARY_SOURCE = {
  projection: {
    name: 1,
    startDate: 1,
    endDate: 1,
    visibility: 1,
    'destinations._id': 1,
    'destinations.name': 1,
    'destinations.latitude': 1,
    'destinations.longitude': 1,
    'destinations.startDate': 1,
    'destinations.endDate': 1,
    'destinations.story': 1,
    'destinations.photos.id': 1,
  },
} as const;

/** What trips stored before per-trip visibility are: what an event without one says (`friends`). */
export const DEFAULT_VISIBILITY = visibilityOf({});

/** The owner's list, newest first: `{ ownerId, createdAt, _id }` is its index. */
export const BY_OWNER_NEWEST = { createdAt: -1, _id: -1 } as const;

/** Filter of the state a change was computed from (`rev`, absent on trips older than it). */
export const atRev = (rev: number | undefined): Document =>
  rev === undefined ? { rev: { $exists: false } } : { rev };

/** Where the journal text of a destination is kept in its trip (`StoredTripDoc.stories`). */
export const storyPath = (destinationId: string): string => `stories.${destinationId}`;

/**
 * The `$set` of a change's destinations: when the list keeps the same destinations in the same
 * order (an edit of some of them), only the entries that differ, by position (the update is
 * conditional on the version and `rev` they were read at, so positions are those of the stored
 * list); otherwise the whole list. An edit of one story then sends one destination, not all.
 */
export function destinationsUpdate(
  before: readonly TripDoc['destinations'][number][],
  after: readonly TripDoc['destinations'][number][],
): Document {
  const sameList =
    before.length === after.length && before.every((d, i) => d._id === after[i]!._id);
  if (!sameList) return { destinations: after };
  const changed: Document = {};
  after.forEach((d, i) => {
    if (!isDeepStrictEqual(d, before[i])) changed[`destinations.${i}`] = d;
  });
  return changed;
}
