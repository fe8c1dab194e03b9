import type { Db } from 'mongodb';
import type { EventEnvelope } from '@wayfarer/contracts';

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
 */
export function mongoIdempotentHandler(
  db: Db,
  consumer: string,
  apply: (event: EventEnvelope) => Promise<void>,
): (event: EventEnvelope) => Promise<boolean> {
  const processed = db.collection<ProcessedEvent>('processed_events');
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
