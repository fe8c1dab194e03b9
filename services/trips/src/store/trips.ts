import type { Collection, Db } from 'mongodb';
import {
  keyedFilter,
  keyedRecord,
  MongoIdempotency,
  notDeleted,
  withOutboxEvents,
  withPendingFlag,
  type OutboxEntry,
} from '@wayfarer/service-kit/mongo';
import { TRIP_FIRST_VERSION } from '@wayfarer/contracts';
import type { TripChange } from '../domain/edit';
import {
  tripSummaryJson,
  type StoredVariant,
  type TripDoc,
  type TripSummaryDoc,
} from '../domain/trip';
import { HiddenTripsStore } from './hidden-trips';
import { ListVersionsStore } from './list-versions';
import { SharedTripsStore } from './shared-trips';
import { TrashStore } from './trash';
import {
  atRev,
  BY_OWNER_NEWEST,
  destinationsUpdate,
  DEFAULT_VISIBILITY,
  SUMMARY,
  SUMMARY_SOURCE,
  SUMMARY_VERSION,
  storyPath,
  TRIP_FIELDS,
  type StoredTripDoc,
  type TripRead,
} from './stored-trip';

export {
  SUMMARY_VERSION,
  type SharedTripRead,
  type StoredTripDoc,
  type TripRead,
} from './stored-trip';

/** How many trips an instance keeps as it last wrote them (`TripsStore.writtenHere`). */
export const WRITTEN_HERE_MAX = 64;

/**
 * The `trips` collection. Single-document writes only (no transactions on the local server):
 * a trip is written by its insert (with `trip.created` in its outbox), by each change (an
 * edit, photos added or removed: the trip's new state with `trip.updated`, over the version and
 * `rev` it was computed from), by the soft-delete (with `trip.deleted`, over the version its
 * event was made from), by its display variants being recorded, by its trash being taken out,
 * by its summary being made again at start, by its share link being put or revoked and a
 * journal text being kept (each only its own field, so none races with a change's
 * update over its version and `rev`), and by the outbox relay (removing sent entries, then the
 * deleted document). Each is one atomic update, and those that write from a read are
 * conditional on what they read, so none can undo another. The writes of an import's hidden
 * trips, of share links and journal texts, and of the trash are in stores of their own on the
 * same collection (`hidden`, `shared`, `trash`).
 *
 * Every write here that changes what `GET /api/mytrips` answers for an owner bumps the owner's
 * list version (`versions`) after the trip write and before it returns, so the write is not
 * answered before every instance's cached list of that owner is out of date (`MyTripsCache`).
 * The relay's writes change no list (its removal is of a trip the list already leaves out).
 */
export class TripsStore {
  readonly collection: Collection<StoredTripDoc>;
  /** Per owner, the version of what `GET /api/mytrips` answers (`list_versions`). */
  readonly versions: ListVersionsStore;
  /** The trips of imports still running, hidden until their import commits. */
  readonly hidden: HiddenTripsStore;
  /** Trips' share links and journal texts. */
  readonly shared: SharedTripsStore;
  /** Removed photos whose objects are still to be removed from the bucket. */
  readonly trash: TrashStore;
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
    this.versions = new ListVersionsStore(db);
    this.hidden = new HiddenTripsStore(this.collection, this.versions);
    this.shared = new SharedTripsStore(this.collection);
    this.trash = new TrashStore(this.collection);
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
    // trips stored before per-trip visibility: what every trip was, `friends`
    await this.collection.updateMany(
      { visibility: { $exists: false } },
      { $set: { visibility: DEFAULT_VISIBILITY } },
    );
    // a destination's trip, found by its id (journal texts, `saveStory`)
    await this.collection.createIndex({ 'destinations._id': 1 });
    // a visitor's link, found by its token's hash only; sparse: trips without a
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
}
