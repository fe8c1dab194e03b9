import type { Collection, Db } from 'mongodb';
import {
  MongoIdempotency,
  notDeleted,
  WITHOUT_IDEMPOTENCY,
  withOutboxEvents,
  withPendingFlag,
  type OutboxEntry,
} from '@wayfarer/service-kit/mongo';
import {
  SUMMARY_VERSION,
  tripSummaryJson,
  type StoredVariant,
  type TripDoc,
  type TripSummaryDoc,
} from '../domain/trip';
import { ListVersions } from './list-versions';

/**
 * A trip's fields but the pending events, the relay's bookkeeping, the list's stored summary
 * and the create's idempotency record, which nothing reading a whole trip needs.
 */
const TRIP_FIELDS = {
  projection: {
    outbox: 0,
    outboxPending: 0,
    outboxClaim: 0,
    summaryJson: 0,
    summaryVersion: 0,
    ...WITHOUT_IDEMPOTENCY,
  },
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

/** The owner's list, newest first: `{ ownerId, createdAt, _id }` is its index. */
const BY_OWNER_NEWEST = { createdAt: -1, _id: -1 } as const;

/**
 * The `trips` collection. Single-document writes only (no transactions on the local server):
 * a trip is written by its insert (with `trip.created` in its outbox), by the soft-delete
 * (with `trip.deleted`), by its display variants being recorded, by its summary being made
 * again at start, and by the outbox relay (removing sent entries, then the deleted document).
 * Each is one atomic update, so none can undo another.
 *
 * Every write here that changes what `GET /api/mytrips` answers for an owner bumps the owner's
 * list version (`versions`) after the trip write and before it returns, so the write is not
 * answered before every instance's cached list of that owner is out of date (`MyTripsCache`).
 * The relay's writes change no list (its removal is of a trip the list already leaves out).
 */
export class TripsRepo {
  readonly collection: Collection<TripDoc>;
  /** Per owner, the version of what `GET /api/mytrips` answers (`list_versions`). */
  readonly versions: ListVersions;
  /**
   * The `Idempotency-Key`s of `POST /api/trips`, kept in the trips they created (service-kit
   * `MongoIdempotency`: a unique index on them, made and pruned by `openMongoService`).
   */
  readonly idempotency: MongoIdempotency;

  constructor(db: Db, name = 'trips') {
    this.collection = db.collection<TripDoc>(name);
    this.versions = new ListVersions(db);
    this.idempotency = new MongoIdempotency(this.collection);
  }

  async init(): Promise<void> {
    // the list's filter and its whole sort: no in-memory sort of an owner's trips
    await this.collection.createIndex({ ownerId: 1, ...BY_OWNER_NEWEST });
    // the janitor's scan of trips whose display variants are still to be made
    await this.collection.createIndex({ pendingVariants: 1 }, { sparse: true });
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
   * Inserts a new trip with its `trip.created` event already in `outbox` and, when the request
   * had an `Idempotency-Key`, its record (one write: a second trip with the same key is refused
   * by the unique index), then bumps its owner's list version.
   */
  async insert(trip: TripDoc): Promise<void> {
    await this.collection.insertOne(withPendingFlag(trip));
    await this.versions.bump(trip.ownerId);
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
      .toArray()) as (TripSummaryDoc & Pick<TripDoc, 'summaryVersion' | 'createdAt'>)[];
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
  async withPendingVariants(limit: number): Promise<TripDoc[]> {
    return this.collection
      .find({ pendingVariants: { $exists: true }, ...notDeleted }, TRIP_FIELDS)
      .limit(limit)
      .toArray() as Promise<TripDoc[]>;
  }

  /**
   * Records a photo's display variant (at `destinations.<d>.photos.<p>`, which never move: a
   * trip does not change) and takes it off `pendingVariants`, dropping the field once it is
   * empty; bumps the owner's list version (the photo's URL in the list loses `?pending=1`).
   * False when the trip is gone or deleted, or the variant was recorded already.
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
      { $set: { [`${path}.display`]: display }, $pull: { pendingVariants: photoId } },
    );
    if (result.modifiedCount !== 1) return false;
    await this.versions.bump(trip.ownerId);
    // an empty `pendingVariants` lists the same as none: no bump for this one
    await this.collection.updateOne(
      { _id: trip._id, pendingVariants: { $size: 0 } },
      { $unset: { pendingVariants: '' } },
    );
    return true;
  }

  /** The trip if `ownerId` owns it and it is not deleted. */
  async findOwned(id: string, ownerId: string): Promise<TripDoc | null> {
    return this.collection.findOne({ _id: id, ownerId, ...notDeleted }, TRIP_FIELDS);
  }

  /** Any live trip by id (access is checked by the caller). */
  async findLive(id: string): Promise<TripDoc | null> {
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
   * Marks the trip deleted and queues its `trip.deleted` event in one single-document update;
   * the outbox relay publishes the event and then removes the document; then bumps the owner's
   * list version. Returns false when the trip was not (or no longer) the owner's live trip,
   * e.g. a concurrent delete won (nothing changed: no bump).
   */
  async softDelete(
    id: string,
    ownerId: string,
    deletedAt: Date,
    event: OutboxEntry,
  ): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: id, ownerId, ...notDeleted },
      withOutboxEvents<TripDoc>({ $set: { deletedAt } }, [event]),
    );
    if (result.modifiedCount !== 1) return false;
    await this.versions.bump(ownerId);
    return true;
  }
}
