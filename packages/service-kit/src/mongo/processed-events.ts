import type { Db } from 'mongodb';
import type { EventEnvelope } from '@wayfarer/contracts';

/** Where consumer markers live, in the consuming service's database. */
const MARKERS = 'processed_events';

interface ProcessedEvent {
  _id: string;
  consumer: string;
  eventId: string;
  processedAt: Date;
}

/**
 * MongoDB variant of the idempotent consumer. Without multi-document transactions the marker
 * cannot be written atomically with the effect, so `apply` MUST itself be idempotent (upserts
 * keyed by aggregate id, deletes by id, guards on the event's occurredAt); the marker written
 * after it only saves repeated work on redelivery. Returns false for an event already applied.
 * Markers older than the retention window are pruned by the service's outbox relay
 * (`pruneProcessedEvents`).
 */
export function mongoProcessedEventsHandler(
  db: Db,
  consumer: string,
  apply: (event: EventEnvelope) => Promise<void>,
): (event: EventEnvelope) => Promise<boolean> {
  const processed = db.collection<ProcessedEvent>(MARKERS);
  return async (event) => {
    const _id = `${consumer}:${event.id}`;
    if (await processed.findOne({ _id }, { projection: { _id: 1 } })) return false;
    await apply(event);
    try {
      await processed.insertOne({ _id, consumer, eventId: event.id, processedAt: new Date() });
    } catch (err) {
      if ((err as { code?: number }).code !== 11000) throw err;
    }
    return true;
  };
}

/**
 * Deletes up to `batchSize` consumer markers of `db` older than `retentionMs`; returns how many.
 * Periodic deletes rather than a TTL index: the local mongo-java-server keeps TTL indexes but
 * never expires anything, and secondary indexes are only used by a real MongoDB.
 */
export async function pruneProcessedEvents(
  db: Db,
  retentionMs: number,
  batchSize: number,
): Promise<number> {
  const processed = db.collection<ProcessedEvent>(MARKERS);
  await processed.createIndex({ processedAt: 1 }, { name: 'processed_at' });
  const old = await processed
    .find({ processedAt: { $lt: new Date(Date.now() - retentionMs) } })
    .project<{ _id: string }>({ _id: 1 })
    .limit(batchSize)
    .toArray();
  if (old.length === 0) return 0;
  const { deletedCount } = await processed.deleteMany({ _id: { $in: old.map((d) => d._id) } });
  return deletedCount;
}
