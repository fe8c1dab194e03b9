import { randomUUID } from 'node:crypto';
import type { Producer } from 'kafkajs';
import type { Collection, Db, Filter, ObjectId, UpdateFilter } from 'mongodb';
import type { EventEnvelope, Topic } from '@wayfarer/contracts';
import {
  sendEvents,
  startRelayLoop,
  type OutboxBacklogSource,
  type OutboxRelay,
  type RelayOptions,
} from '../relay';
import { activeTraceparent } from '../telemetry/trace';
import { pruneProcessedEvents } from './processed-events';

/**
 * MongoDB variant of the transactional outbox: an aggregate's pending events live in its own
 * document (`outbox` array), written in the same single-document update as the change itself,
 * because multi-document transactions are not available on every server we run (the local
 * mongo-java-server has none). Single-document atomicity is all this relies on.
 *
 * A document with pending events carries `outboxPending: true` (set by the same write, removed
 * by the relay once the array is empty), so the relay finds them through a small sparse index
 * instead of scanning the collection. While a relay instance publishes a document's entries it
 * holds a lease on it (`outboxClaim`), so two instances never send the same entries in the
 * normal case; an instance that dies lets its lease expire and another one sends them (at least
 * once).
 *
 * A deleted aggregate is first marked `deletedAt` with its `...deleted` event in the outbox; the
 * relay removes the document once that event is out.
 */
export interface OutboxEntry {
  id: string;
  topic: string;
  key: string;
  envelope: EventEnvelope;
  createdAt: Date;
  /** The W3C trace context of the request that wrote it (absent when untraced). */
  traceparent?: string;
}

export interface WithOutbox {
  outbox?: OutboxEntry[];
  /** Present (true) while `outbox` may hold entries: the relay's indexed scan key. */
  outboxPending?: true;
  /** A relay instance's lease on the document's entries while it sends them. */
  outboxClaim?: { by: string; until: Date };
  deletedAt?: Date | null;
}

/** How long a relay instance holds the documents it is sending before another may take them. */
export const OUTBOX_CLAIM_LEASE_MS = 30_000;

/** Name of the sparse index on `outboxPending` the relay creates on every collection. */
export const OUTBOX_PENDING_INDEX = 'outbox_pending';

/** An outbox entry for `event`, with the active trace context (the relay continues it). */
export function outboxEntry(topic: Topic, event: EventEnvelope): OutboxEntry {
  const entry: OutboxEntry = {
    id: event.id,
    topic,
    key: event.aggregateId,
    envelope: event,
    createdAt: new Date(),
  };
  const traceparent = activeTraceparent();
  if (traceparent) entry.traceparent = traceparent;
  return entry;
}

/**
 * A new document as inserted: flagged pending when its `outbox` already holds events (insert
 * documents through this, or the relay will not see their events).
 */
export function withPendingFlag<T extends WithOutbox>(doc: T): T {
  return doc.outbox && doc.outbox.length > 0 ? { ...doc, outboxPending: true } : doc;
}

/**
 * `update` plus appending `entries` to the document's outbox and flagging it pending: one
 * update, so the events are written atomically with the change. (It merges `$set` and
 * `$push`: never spread an outbox fragment into an update that has its own `$set`.)
 */
export function withOutboxEvents<T extends WithOutbox>(
  update: UpdateFilter<T>,
  entries: readonly OutboxEntry[],
): UpdateFilter<T> {
  if (entries.length === 0) return update;
  const merged: Record<string, unknown> = {
    ...update,
    $set: { ...update.$set, outboxPending: true },
    $push: { ...update.$push, outbox: { $each: [...entries] } },
  };
  return merged as UpdateFilter<T>;
}

/** Filter of documents that are not soft-deleted (pending removal by the relay). */
export const notDeleted = { deletedAt: null } as const;

/** What the relay reads and writes of an aggregate document. */
type OutboxDoc = WithOutbox & { _id: string | ObjectId };

/** Documents with pending entries that no live lease holds. */
function claimable(now: Date): Filter<OutboxDoc> {
  return {
    outboxPending: true,
    $or: [{ outboxClaim: { $exists: false } }, { 'outboxClaim.until': { $lt: now } }],
  };
}

export interface MongoOutboxRelayOptions extends RelayOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any aggregate collection
  collections: Collection<any>[];
  /** How long a claim on documents being sent lasts (default `OUTBOX_CLAIM_LEASE_MS`). */
  claimLeaseMs?: number;
  /**
   * Databases whose `processed_events` (consumer markers) the relay prunes; default: the
   * databases of `collections`.
   */
  markerDbs?: Db[];
}

/** The databases of these collections (the driver keeps it on the collection, untyped). */
function databasesOf(collections: readonly Collection<OutboxDoc>[]): Db[] {
  const byName = new Map<string, Db>();
  for (const c of collections) {
    const db = (c as unknown as { db?: Db }).db;
    if (db) byName.set(db.databaseName, db);
  }
  return [...byName.values()];
}

/**
 * Publishes every document's outbox entries to Kafka, then removes exactly those entries by id
 * (and the document itself when it was soft-deleted and has nothing left to send). Each of
 * these is one atomic single-document write, so a change that lands meanwhile (a save pushing
 * a new event, a soft-delete) is never lost: its entry was not sent, so it stays for the next
 * round.
 *
 * Each round: find up to `batchSize` pending, unclaimed documents by the `outboxPending` index;
 * claim them with one conditional `updateMany` (per document atomic, so each is claimed by one
 * instance); read back the ones this round claimed; send; then per document pull the sent
 * entries and release the claim, and drop the pending flag if the array is empty (one write
 * when no entry was pushed since the read, the usual case). A failed send
 * releases the claims at once.
 *
 * At start it creates the index on every collection and flags documents written before the
 * flag existed (a one-off scan); it also prunes the consumer markers of the collections'
 * databases older than `retentionMs`.
 */
export function startMongoOutboxRelay(options: MongoOutboxRelayOptions): OutboxRelay {
  const batchSize = options.batchSize ?? 100;
  const lease = options.claimLeaseMs ?? OUTBOX_CLAIM_LEASE_MS;
  const collections = options.collections as Collection<OutboxDoc>[];
  const markerDbs = options.markerDbs ?? databasesOf(collections);
  const instance = randomUUID();
  let round = 0;

  let prepared: Promise<void> | null = null;
  function prepare(): Promise<void> {
    prepared ??= (async () => {
      for (const collection of collections) {
        await collection.createIndex(
          { outboxPending: 1 },
          { name: OUTBOX_PENDING_INDEX, sparse: true },
        );
        // documents written before the flag existed
        await collection.updateMany(
          { 'outbox.0': { $exists: true }, outboxPending: { $exists: false } },
          { $set: { outboxPending: true } },
        );
      }
    })().catch((err: unknown) => {
      prepared = null; // retried by the next round
      throw err;
    });
    return prepared;
  }

  async function publishCollection(
    collection: Collection<OutboxDoc>,
    connect: () => Promise<Producer>,
  ): Promise<number> {
    const now = new Date();
    const candidates = await collection
      .find(claimable(now))
      .project<{ _id: OutboxDoc['_id'] }>({ _id: 1 })
      .limit(batchSize)
      .toArray();
    if (candidates.length === 0) return 0;
    const ids = candidates.map((d) => d._id);
    const claim = `${instance}/${++round}`;
    await collection.updateMany(
      { _id: { $in: ids }, ...claimable(now) },
      { $set: { outboxClaim: { by: claim, until: new Date(now.getTime() + lease) } } },
    );
    const docs = await collection
      .find({ _id: { $in: ids }, 'outboxClaim.by': claim })
      .project<OutboxDoc>({ _id: 1, outbox: 1, deletedAt: 1 })
      .toArray();
    if (docs.length === 0) return 0; // another instance claimed them first
    const entries = docs
      .flatMap((d) => d.outbox ?? [])
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    try {
      await sendEvents(connect, entries);
    } catch (err) {
      await collection
        .updateMany({ _id: { $in: ids }, 'outboxClaim.by': claim }, { $unset: { outboxClaim: '' } })
        .catch(() => undefined); // else the lease expires
      throw err;
    }
    for (const doc of docs) {
      const sentIds = (doc.outbox ?? []).map((e) => e.id);
      // the common case in one write: nothing was pushed since the read (entries are only ever
      // appended by writers and taken out by the claim holder, so the same count is the same
      // entries): empty the outbox, release the claim and drop the flag together
      if (sentIds.length > 0 && !doc.deletedAt) {
        const emptied = await collection.updateOne(
          { _id: doc._id, 'outboxClaim.by': claim, outbox: { $size: sentIds.length } },
          { $set: { outbox: [] }, $unset: { outboxClaim: '', outboxPending: '' } },
        );
        if (emptied.modifiedCount === 1) continue;
      }
      const pull = { outbox: { id: { $in: sentIds } } };
      const released = await collection.updateOne(
        { _id: doc._id, 'outboxClaim.by': claim },
        sentIds.length > 0
          ? { $pull: pull, $unset: { outboxClaim: '' } }
          : { $unset: { outboxClaim: '' } },
      );
      if (released.matchedCount === 0 && sentIds.length > 0) {
        // the lease ran out mid-send: the entries are out all the same
        await collection.updateOne({ _id: doc._id }, { $pull: pull });
      }
      // a write pushing new events meanwhile keeps the flag (the filter sees its entry)
      await collection.updateOne(
        { _id: doc._id, outboxPending: true, 'outbox.0': { $exists: false } },
        { $unset: { outboxPending: '' } },
      );
      if (doc.deletedAt) {
        await collection.deleteOne({
          _id: doc._id,
          deletedAt: { $ne: null },
          'outbox.0': { $exists: false },
        });
      }
    }
    return entries.length;
  }

  return startRelayLoop({
    ...options,
    name: 'mongo-outbox-relay',
    backlog: mongoOutboxBacklog(collections),
    async pruneOnce(retentionMs, batchSize) {
      let removed = 0;
      for (const db of markerDbs) removed += await pruneProcessedEvents(db, retentionMs, batchSize);
      return removed;
    },
    async publishPending(connect) {
      await prepare();
      let sent = 0;
      for (const collection of collections) sent += await publishCollection(collection, connect);
      return sent;
    },
  });
}

/** Documents a backlog read looks at, per collection (the count is "at least" beyond it). */
const BACKLOG_SCAN_LIMIT = 1000;

/**
 * The pending entries of these collections for the metrics: how many, and when the oldest was
 * written, read through the `outboxPending` index (at most BACKLOG_SCAN_LIMIT documents each).
 */
export function mongoOutboxBacklog(
  collections: readonly Collection<OutboxDoc>[],
): OutboxBacklogSource {
  return {
    async read() {
      let pending = 0;
      let oldest = Number.POSITIVE_INFINITY;
      for (const collection of collections) {
        const docs = await collection
          .find({ outboxPending: true })
          .project<{ outbox?: { createdAt: Date }[] }>({ 'outbox.createdAt': 1 })
          .limit(BACKLOG_SCAN_LIMIT)
          .toArray();
        for (const entry of docs.flatMap((d) => d.outbox ?? [])) {
          pending += 1;
          oldest = Math.min(oldest, new Date(entry.createdAt).getTime());
        }
      }
      return { pending, oldestCreatedAt: pending > 0 ? new Date(oldest) : null };
    },
  };
}
