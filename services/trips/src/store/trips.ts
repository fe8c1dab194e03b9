import { isDeepStrictEqual } from 'node:util';
import type { Collection, Db, Document } from 'mongodb';
import {
  keyedFilter,
  keyedRecord,
  MongoIdempotency,
  notDeleted,
  WITHOUT_IDEMPOTENCY,
  withOutboxEvents,
  withPendingFlag,
  type IdempotencyRecord,
  type OutboxEntry,
  type WithIdempotency,
  type WithOutbox,
} from '@wayfarer/service-kit/mongo';
import { TRIP_FIRST_VERSION, visibilityOf } from '@wayfarer/contracts';
import type { TripChange } from '../domain/edit';
import { importOwner } from '../domain/import/unit';
import type { JournalStoryDoc, ShareLinkDoc } from '../domain/share';
import {
  tripSummaryJson,
  type StoredVariant,
  type TripDoc,
  type TripSummaryDoc,
} from '../domain/trip';
import { ListVersions } from './list-versions';

/**
 * Version of how a trip's `summaryJson` is made: bump it when contracts' `TripSummary` or
 * `tripSummaryJson` changes, and every trip gets its summary made again at the next start
 * (`TripsRepo.init`; until then the list makes an outdated one at read time). 2: the trip's
 * `visibility` (issue 20).
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
   * The trip's live share link (issue 20; absent: none), found by a visitor by its token's hash
   * (`share.tokenHash`, unique sparse index). Kept here so a link read is one read of the trip,
   * and a new link, a revoke and the trip's delete are each one write of it. Written with
   * field-level updates that leave `version`, `rev` and the summary alone: it is not part of the
   * owner's trip JSON nor of their list.
   */
  share?: ShareLinkDoc;
  /**
   * Journal texts of the trip's destinations by destination id (`journal.saved`, issue 20), for
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
   * all (`revealImport`).
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
const BOOKKEEPING = {
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
const TRIP_FIELDS = { projection: { ...BOOKKEEPING, share: 0, stories: 0 } } as const;

/** A trip as its link shows it (`SharedTripRead`), journal texts included or not. */
const SHARED_FIELDS = {
  withStories: { projection: BOOKKEEPING },
  withoutStories: { projection: { ...BOOKKEEPING, stories: 0 } },
} as const;

/**
 * What `GET /api/mytrips` reads of a trip: its `summaryJson` (one string: no story, no storage
 * keys, no nested array path to project, nothing to decode into objects), which of its photos
 * are still pending, and what the list is sorted and checked by.
 */
const SUMMARY = {
  projection: { summaryJson: 1, summaryVersion: 1, pendingVariants: 1, createdAt: 1 },
} as const;

/** What a trip's `summaryJson` is made from (`tripSummaryJson`). */
const SUMMARY_SOURCE = {
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
const DEFAULT_VISIBILITY = visibilityOf({});

/** The owner's list, newest first: `{ ownerId, createdAt, _id }` is its index. */
const BY_OWNER_NEWEST = { createdAt: -1, _id: -1 } as const;

/** Filter of the state a change was computed from (`rev`, absent on trips older than it). */
const atRev = (rev: number | undefined): Document =>
  rev === undefined ? { rev: { $exists: false } } : { rev };

/** Where the journal text of a destination is kept in its trip (`StoredTripDoc.stories`). */
const storyPath = (destinationId: string): string => `stories.${destinationId}`;

/**
 * The `$set` of a change's destinations: when the list keeps the same destinations in the same
 * order (an edit of some of them), only the entries that differ, by position (the update is
 * conditional on the version and `rev` they were read at, so positions are those of the stored
 * list); otherwise the whole list. An edit of one story then sends one destination, not all.
 */
function destinationsUpdate(
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

/** How many trips an instance keeps as it last wrote them (`TripsRepo.writtenHere`). */
export const WRITTEN_HERE_MAX = 64;

/**
 * The `trips` collection. Single-document writes only (no transactions on the local server):
 * a trip is written by its insert (with `trip.created` in its outbox), by each change (an
 * edit, photos added or removed: the trip's new state with `trip.updated`, over the version and
 * `rev` it was computed from), by the soft-delete (with `trip.deleted`, over the version its
 * event was made from), by its display variants being recorded, by its trash being taken out,
 * by its summary being made again at start, by its share link being put or revoked and a
 * journal text being kept (issue 20: each only its own field, so none races with a change's
 * update over its version and `rev`), and by the outbox relay (removing sent entries, then the
 * deleted document). Each is one atomic update, and those that write from a read are
 * conditional on what they read, so none can undo another.
 *
 * Every write here that changes what `GET /api/mytrips` answers for an owner bumps the owner's
 * list version (`versions`) after the trip write and before it returns, so the write is not
 * answered before every instance's cached list of that owner is out of date (`MyTripsCache`).
 * The relay's writes change no list (its removal is of a trip the list already leaves out).
 */
export class TripsRepo {
  readonly collection: Collection<StoredTripDoc>;
  /** Per owner, the version of what `GET /api/mytrips` answers (`list_versions`). */
  readonly versions: ListVersions;
  /**
   * The `Idempotency-Key`s of `POST /api/trips`, kept in the trips they created (service-kit
   * `MongoIdempotency`: a unique index on them, made and pruned by `openMongoService`).
   */
  readonly idempotency: MongoIdempotency;
  /**
   * The `Idempotency-Key`s of photo adds: each trip keeps its latest keyed add's (`photoAdd`,
   * its own unique index), written by the add's own update.
   */
  readonly photoAdds: MongoIdempotency<Pick<StoredTripDoc, 'photoAdd'>>;
  /**
   * The trips this instance changed last, as its change left them (by id, oldest first, at
   * most WRITTEN_HERE_MAX): what the next change of the same trip starts from instead of
   * reading it again (`writtenHere`). The edit screen sends each change with the version of
   * the previous answer, so a series of edits reads the trip once. Never trusted: a change
   * computed from one is written only over the same version and `rev`, like one computed from a
   * read, and every write of the trip's fields moves one of them.
   */
  private readonly written = new Map<string, TripRead>();

  constructor(db: Db, name = 'trips') {
    this.collection = db.collection<StoredTripDoc>(name);
    this.versions = new ListVersions(db);
    this.idempotency = new MongoIdempotency(this.collection);
    this.photoAdds = new MongoIdempotency(this.collection, undefined, { field: 'photoAdd' });
  }

  async init(): Promise<void> {
    // the list's filter and its whole sort: no in-memory sort of an owner's trips
    await this.collection.createIndex({ ownerId: 1, ...BY_OWNER_NEWEST });
    // the janitor's scans of trips whose display variants are still to be made, and of trips
    // whose removed photos' objects are still to be removed
    await this.collection.createIndex({ pendingVariants: 1 }, { sparse: true });
    await this.collection.createIndex({ trashedPhotos: 1 }, { sparse: true });
    // trips stored before versions: version 1 (nothing changed them)
    await this.collection.updateMany(
      { version: { $exists: false } },
      { $set: { version: TRIP_FIRST_VERSION } },
    );
    // trips stored before per-trip visibility (issue 20): what every trip was, `friends`
    await this.collection.updateMany(
      { visibility: { $exists: false } },
      { $set: { visibility: DEFAULT_VISIBILITY } },
    );
    // a destination's trip, found by its id (journal texts, `saveStory`, issue 20)
    await this.collection.createIndex({ 'destinations._id': 1 });
    // a visitor's link, found by its token's hash only (issue 20); sparse: trips without a
    // link are not in it (the local server ignores partial indexes)
    await this.collection.createIndex({ 'share.tokenHash': 1 }, { unique: true, sparse: true });
    await this.fillSummaries();
  }

  /**
   * Trips stored before documents kept their `summaryJson`, or with another `SUMMARY_VERSION`,
   * get it made (at start; a no-op afterwards), and their owners' list versions bumped (the
   * lists other instances keep were made the older way). One an older instance writes
   * meanwhile is made at read time by `listSummaries` until the next start.
   */
  private async fillSummaries(): Promise<void> {
    const outdated = { summaryVersion: { $ne: SUMMARY_VERSION } };
    const owners = new Set<string>();
    const source = { projection: { ...SUMMARY_SOURCE.projection, ownerId: 1 } };
    for await (const trip of this.collection.find(outdated, source)) {
      const result = await this.collection.updateOne(
        { _id: trip._id, ...outdated },
        { $set: { summaryJson: tripSummaryJson(trip), summaryVersion: SUMMARY_VERSION } },
      );
      if (result.modifiedCount === 1) owners.add(trip.ownerId);
    }
    for (const owner of owners) await this.versions.bump(owner);
  }

  /**
   * Inserts a new trip with its `trip.created` event in `outbox`, its summary and, when the
   * keyed use case running has an `Idempotency-Key` (service-kit `keyedRecord`), its record (one
   * write: a second trip with the same key is refused by the unique index), then bumps its
   * owner's list version.
   */
  async insert(trip: TripDoc, events: OutboxEntry[]): Promise<void> {
    await this.collection.insertOne(
      withPendingFlag({
        ...trip,
        summaryJson: tripSummaryJson(trip),
        summaryVersion: SUMMARY_VERSION,
        rev: 0,
        outbox: events,
        ...keyedRecord(this.collection, trip),
      }),
    );
    await this.versions.bump(trip.ownerId);
  }

  /**
   * Inserts a trip of the running import `importId`, hidden (`StoredTripDoc.heldOutbox`): under
   * `importOwner(importId)`, its `trip.created` (made for its real owner) and its photos'
   * variants held. No list version moves: no list shows it.
   */
  async insertHidden(trip: TripDoc, importId: string, events: OutboxEntry[]): Promise<void> {
    const { pendingVariants, ...rest } = trip;
    await this.collection.insertOne({
      ...rest,
      ownerId: importOwner(importId),
      summaryJson: tripSummaryJson(trip),
      summaryVersion: SUMMARY_VERSION,
      rev: 0,
      heldOutbox: events,
      ...(pendingVariants && pendingVariants.length > 0 ? { heldVariants: pendingVariants } : {}),
    });
  }

  /**
   * The commit of the import `importId`: every trip it wrote hidden gets `ownerId`, its
   * `trip.created` into the outbox (flagged for the relay) and its photos into
   * `pendingVariants`, in ONE update of them all (a single `updateMany`, which the server
   * carries out whole even when the caller dies meanwhile); then the owner's list version is
   * bumped. Idempotent: run again (a retry, the sweeper rolling a commit forward) it finds
   * nothing hidden and only bumps. Returns how many trips it showed.
   */
  async revealImport(importId: string, ownerId: string): Promise<number> {
    const result = await this.collection.updateMany(
      { ownerId: importOwner(importId) },
      {
        $set: { ownerId, outboxPending: true },
        $rename: { heldOutbox: 'outbox', heldVariants: 'pendingVariants' },
      },
    );
    await this.versions.bump(ownerId);
    return result.modifiedCount;
  }

  /** The trips the import `importId` wrote and still hides: ids and held variants. */
  async hidden(importId: string): Promise<Pick<StoredTripDoc, '_id' | 'heldVariants'>[]> {
    return this.collection
      .find({ ownerId: importOwner(importId) }, { projection: { _id: 1, heldVariants: 1 } })
      .toArray();
  }

  /**
   * Removes a hidden trip of the import `importId` (it failed, or died): never shown, never
   * announced, so nothing else knows of it and the document simply goes.
   */
  async removeHidden(importId: string, tripId: string): Promise<void> {
    await this.collection.deleteOne({ _id: tripId, ownerId: importOwner(importId) });
  }

  /**
   * Writes a change (`TripChange`) over the trip as it was read (`current`: the same version
   * and `rev`, still live and the owner's): its new fields, destinations, pending variants and
   * summary, its `trip.updated` entry, the photos it took away into `trashedPhotos` (whose
   * objects the use case then removes) and the journal texts of the destinations it took away
   * unset, in one update (with a keyed photo add's record, service-kit `keyedRecord`, matching
   * only a trip not holding its key, `keyedFilter`); then bumps the owner's list version.
   * False when the trip is not in that state any more (a change, a delete or a display variant
   * landed since the read): nothing was written.
   */
  async applyChange(
    current: TripRead,
    change: TripChange,
    events: OutboxEntry[],
  ): Promise<boolean> {
    const next = change.trip;
    const pending = next.pendingVariants ?? [];
    const unset: Record<string, ''> = {};
    if (pending.length === 0) unset.pendingVariants = '';
    for (const id of change.removedDestinationIds) unset[storyPath(id)] = '';
    const update = withOutboxEvents<StoredTripDoc>(
      {
        $set: {
          name: next.name,
          startDate: next.startDate,
          endDate: next.endDate,
          ...destinationsUpdate(current.destinations, next.destinations),
          visibility: next.visibility,
          version: next.version,
          summaryJson: tripSummaryJson(next),
          summaryVersion: SUMMARY_VERSION,
          ...(pending.length > 0 ? { pendingVariants: pending } : {}),
          ...keyedRecord(this.collection, next),
        },
        ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}),
        $inc: { rev: 1 },
        ...(change.removedPhotoIds.length > 0
          ? { $push: { trashedPhotos: { $each: change.removedPhotoIds } } }
          : {}),
      },
      events,
    );
    const result = await this.collection.updateOne(
      {
        _id: current._id,
        ownerId: current.ownerId,
        ...notDeleted,
        version: current.version,
        ...atRev(current.rev),
        ...keyedFilter(this.collection),
      },
      update,
    );
    if (result.modifiedCount !== 1) {
      this.written.delete(current._id);
      return false;
    }
    // the trip as this update left it: `rev` one more (1 on a trip written before `rev`)
    this.remember({ ...next, rev: (current.rev ?? 0) + 1 });
    await this.versions.bump(current.ownerId);
    return true;
  }

  /**
   * The owner's trip as this instance's last change left it, when it is at one of `versions`
   * (what the change's `If-Match` named): a change may start from it instead of a read
   * (`usecases/change-trip.ts`). Undefined when this instance did not write it last, or at
   * another version: then read it. It may be out of date all the same (another instance, a
   * display variant or a delete wrote since): the change's conditional update then writes
   * nothing (`applyChange` false) and the change reads the trip.
   */
  writtenHere(id: string, ownerId: string, versions: readonly number[]): TripRead | undefined {
    const trip = this.written.get(id);
    return trip && trip.ownerId === ownerId && versions.includes(trip.version) ? trip : undefined;
  }

  private remember(trip: TripRead): void {
    this.written.delete(trip._id);
    this.written.set(trip._id, trip);
    if (this.written.size > WRITTEN_HERE_MAX) {
      this.written.delete(this.written.keys().next().value!);
    }
  }

  /** Trips with removed photos whose objects are still to be removed (at most `limit`). */
  async withTrash(limit: number): Promise<Pick<StoredTripDoc, '_id' | 'trashedPhotos'>[]> {
    return this.collection
      .find({ trashedPhotos: { $exists: true } }, { projection: { trashedPhotos: 1 } })
      .limit(limit)
      .toArray();
  }

  /** Takes photos whose objects were removed off the trip's trash (the field goes once empty). */
  async takeOutTrash(tripId: string, photoIds: readonly string[]): Promise<void> {
    if (photoIds.length === 0) return;
    await this.collection.updateOne(
      { _id: tripId },
      { $pull: { trashedPhotos: { $in: [...photoIds] } } },
    );
    await this.collection.updateOne(
      { _id: tripId, trashedPhotos: { $size: 0 } },
      { $unset: { trashedPhotos: '' } },
    );
  }

  /**
   * The owner's list version: read before `listSummaries` by a reader that keeps the list
   * (`usecases/list-my-trips.ts`).
   */
  async listVersion(ownerId: string): Promise<number> {
    return this.versions.current(ownerId);
  }

  /** The owner's trips, newest first; soft-deleted ones (pending removal) excluded. */
  async listByOwner(ownerId: string): Promise<TripDoc[]> {
    return this.collection
      .find({ ownerId, ...notDeleted }, TRIP_FIELDS)
      .sort(BY_OWNER_NEWEST)
      .toArray() as Promise<TripDoc[]>;
  }

  /**
   * What the list needs of the owner's trips (`SUMMARY`), newest first, live ones only. Sorted
   * here rather than by the server: the local mongo-java-server sorts before it projects (13 ms
   * for 100 trips of 5 destinations against 1.6 ms unsorted, measured); an owner's trips are a
   * few hundred at most, and a real MongoDB still finds them through the owner index. A trip
   * whose summary is missing or outdated (written by an older instance since this one started)
   * gets it made here from its fields.
   */
  async listSummaries(ownerId: string): Promise<TripSummaryDoc[]> {
    const docs = (await this.collection
      .find({ ownerId, ...notDeleted }, { ...SUMMARY, promoteBuffers: true })
      .toArray()) as (TripSummaryDoc & Pick<StoredTripDoc, 'summaryVersion' | 'createdAt'>)[];
    const outdated = docs.filter((d) => d.summaryVersion !== SUMMARY_VERSION).map((d) => d._id);
    const made = new Map<string, Buffer>();
    if (outdated.length > 0) {
      const sources = this.collection.find({ _id: { $in: outdated } }, SUMMARY_SOURCE);
      for await (const t of sources) made.set(t._id, tripSummaryJson(t));
    }
    return docs
      .flatMap((d) => {
        const summaryJson = d.summaryVersion === SUMMARY_VERSION ? d.summaryJson : made.get(d._id);
        // undefined: removed meanwhile (the relay removes a deleted trip)
        return summaryJson === undefined ? [] : [{ ...d, summaryJson }];
      })
      .sort(
        (a, b) =>
          b.createdAt.getTime() - a.createdAt.getTime() ||
          (a._id < b._id ? 1 : a._id > b._id ? -1 : 0),
      );
  }

  /** Live trips with display variants still to be made (at most `limit`). */
  async withPendingVariants(limit: number): Promise<TripRead[]> {
    return this.collection
      .find({ pendingVariants: { $exists: true }, ...notDeleted }, TRIP_FIELDS)
      .limit(limit)
      .toArray() as Promise<TripRead[]>;
  }

  /**
   * Records a photo's display variant at `destinations.<d>.photos.<p>` (where the caller found
   * it: the update matches only while the photo is still there, as a change may move or remove
   * it) and takes it off `pendingVariants`, dropping the field once it is empty; bumps `rev`
   * (a change computed before must not write its older copy of the photo over it) and the
   * owner's list version (the photo's URL in the list loses `?pending=1`). False when the trip
   * is gone or deleted, the photo not at that position, or the variant recorded already.
   */
  async setDisplay(
    trip: Pick<TripDoc, '_id' | 'ownerId'>,
    position: { destination: number; photo: number },
    photoId: string,
    display: StoredVariant,
  ): Promise<boolean> {
    const path = `destinations.${position.destination}.photos.${position.photo}`;
    const result = await this.collection.updateOne(
      {
        _id: trip._id,
        ownerId: trip.ownerId,
        ...notDeleted,
        pendingVariants: photoId,
        [`${path}.id`]: photoId,
      },
      {
        $set: { [`${path}.display`]: display },
        $pull: { pendingVariants: photoId },
        $inc: { rev: 1 },
      },
    );
    if (result.modifiedCount !== 1) return false;
    this.written.delete(trip._id);
    await this.versions.bump(trip.ownerId);
    // an empty `pendingVariants` lists the same as none: no bump for this one
    await this.collection.updateOne(
      { _id: trip._id, pendingVariants: { $size: 0 } },
      { $unset: { pendingVariants: '' }, $inc: { rev: 1 } },
    );
    return true;
  }

  /** The trip if `ownerId` owns it and it is not deleted. */
  async findOwned(id: string, ownerId: string): Promise<TripRead | null> {
    return this.collection.findOne({ _id: id, ownerId, ...notDeleted }, TRIP_FIELDS);
  }

  /** Any live trip by id (access is checked by the caller). */
  async findLive(id: string): Promise<TripRead | null> {
    return this.collection.findOne({ _id: id, ...notDeleted }, TRIP_FIELDS);
  }

  /** Which of `ids` have a trip document, live or soft-deleted (the sweeper keeps their objects). */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const docs = await this.collection
      .find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } })
      .toArray();
    return new Set(docs.map((d) => d._id));
  }

  /**
   * Marks the trip deleted and queues its `trip.deleted` event (made from `current`) in one
   * single-document update, over the version the event was made from; the outbox relay
   * publishes the event and then removes the document; its share link and journal texts go in
   * the same update. Then bumps the owner's list version.
   * Returns false when the trip was not (or no longer) the owner's live trip at that version:
   * a concurrent delete won, or a change landed since the read (nothing changed: no bump).
   */
  async softDelete(
    current: Pick<TripDoc, '_id' | 'ownerId' | 'version' | 'destinations'>,
    deletedAt: Date,
    event: OutboxEntry,
  ): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: current._id, ownerId: current.ownerId, ...notDeleted, version: current.version },
      withOutboxEvents<StoredTripDoc>({ $set: { deletedAt }, $unset: { share: '', stories: '' } }, [
        event,
      ]),
    );
    this.written.delete(current._id);
    if (result.modifiedCount !== 1) return false;
    await this.versions.bump(current.ownerId);
    return true;
  }

  /**
   * Puts `link` as the live link of the owner's live trip, replacing any other (its token stops
   * working in the same write). False when the trip is not the owner's live trip (nothing
   * written). Neither the version nor the list version moves: the link is not in either.
   */
  async putShareLink(tripId: string, ownerId: string, link: ShareLinkDoc): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: tripId, ownerId, ...notDeleted },
      { $set: { share: link } },
    );
    return result.matchedCount === 1;
  }

  /** The owner's live trip's link (live or expired): `{}` when none, null when no such trip. */
  async shareLinkOf(tripId: string, ownerId: string): Promise<Pick<StoredTripDoc, 'share'> | null> {
    return this.collection.findOne(
      { _id: tripId, ownerId, ...notDeleted },
      { projection: { _id: 0, share: 1 } },
    );
  }

  /**
   * Removes the owner's live trip's link: what it was (`{}` when it had none), or null when no
   * such trip. One write of the trip, leaving its version alone.
   */
  async revokeShareLink(
    tripId: string,
    ownerId: string,
  ): Promise<Pick<StoredTripDoc, 'share'> | null> {
    return this.collection.findOneAndUpdate(
      { _id: tripId, ownerId, ...notDeleted },
      { $unset: { share: '' } },
      { projection: { _id: 0, share: 1 }, returnDocument: 'before' },
    );
  }

  /**
   * The trip whose link's token hashes to `tokenHash` (the only way a visitor's link is found:
   * one indexed read), with its link and, if asked, its journal texts. Whether the trip is live
   * (its soft-delete unsets `share`, so a deleted one is found only if an older instance deleted
   * it) and the link too is the caller's check (`domain/share.ts` `checkSharedLink`): the filter
   * is the index's key alone, as the local server uses an index only for a filter on exactly
   * its keys (with `deletedAt` beside it, it scans the collection).
   */
  async findShared(
    tokenHash: string,
    options: { stories: boolean },
  ): Promise<SharedTripRead | null> {
    return this.collection.findOne(
      { 'share.tokenHash': tokenHash },
      options.stories ? SHARED_FIELDS.withStories : SHARED_FIELDS.withoutStories,
    );
  }

  /**
   * Keeps `story` as the journal text of `destinationId` in the live trip of `ownerId` holding
   * that destination, unless a save at least as new is kept already (a late, older event
   * changes nothing: compared in the update's filter). One conditional update of the trip, so a
   * change removing the destination or the trip's delete either lands after it (and unsets it)
   * or before it (and it matches nothing). True when written. `destinationId` must be an id we
   * make (`isTripId`): it names a field.
   */
  async saveStory(
    destinationId: string,
    ownerId: string,
    story: JournalStoryDoc,
  ): Promise<boolean> {
    const path = storyPath(destinationId);
    const result = await this.collection.updateOne(
      {
        'destinations._id': destinationId,
        ownerId,
        ...notDeleted,
        $or: [{ [path]: { $exists: false } }, { [`${path}.savedAt`]: { $lt: story.savedAt } }],
      },
      { $set: { [path]: story } },
    );
    return result.modifiedCount === 1;
  }
}
