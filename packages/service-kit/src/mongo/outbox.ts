import type { Kafka } from 'kafkajs';
import type { Collection, ObjectId } from 'mongodb';
import type { Logger } from 'pino';
import type { EventEnvelope, Topic } from '@wayfarer/contracts';
import { batchByTopic, startRelayLoop, type OutboxRelay } from '../relay';

/**
 * MongoDB variant of the transactional outbox: an aggregate's pending events live in its own
 * document (`outbox` array), written in the same single-document update as the change itself,
 * because multi-document transactions are not available on every server we run (the local
 * mongo-java-server has none). Single-document atomicity is all this relies on.
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
}

export interface WithOutbox {
  outbox?: OutboxEntry[];
  deletedAt?: Date | null;
}

export function outboxEntry(topic: Topic, event: EventEnvelope): OutboxEntry {
  return { id: event.id, topic, key: event.aggregateId, envelope: event, createdAt: new Date() };
}

/** The update fragment that appends events to a document's outbox. */
export function pushToOutbox(entries: OutboxEntry[]): {
  $push: { outbox: { $each: OutboxEntry[] } };
} {
  return { $push: { outbox: { $each: entries } } };
}

/** Filter of documents that are not soft-deleted (pending removal by the relay). */
export const notDeleted = { deletedAt: null } as const;

/** What the relay reads and writes of an aggregate document. */
type OutboxDoc = WithOutbox & { _id: string | ObjectId };

export interface MongoOutboxRelayOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any aggregate collection
  collections: Collection<any>[];
  kafka: Kafka;
  logger: Logger;
  topics: readonly Topic[];
  pollIntervalMs?: number;
  batchSize?: number;
}

/**
 * Publishes every document's outbox entries to Kafka, then removes exactly those entries by id
 * (and the document itself when it was soft-deleted and has nothing left to send). Each of
 * these is one atomic single-document write, so a change that lands meanwhile (a save pushing
 * a new event, a soft-delete) is never lost: its entry was not sent, so it stays for the next
 * round.
 */
export function startMongoOutboxRelay(options: MongoOutboxRelayOptions): OutboxRelay {
  const batchSize = options.batchSize ?? 100;
  const collections = options.collections as Collection<OutboxDoc>[];
  return startRelayLoop({
    name: 'mongo-outbox-relay',
    kafka: options.kafka,
    logger: options.logger,
    topics: options.topics,
    pollIntervalMs: options.pollIntervalMs,
    async publishPending(connect) {
      let sent = 0;
      for (const collection of collections) {
        const docs = await collection
          .find({ 'outbox.0': { $exists: true } })
          .project<OutboxDoc>({ _id: 1, outbox: 1, deletedAt: 1 })
          .limit(batchSize)
          .toArray();
        if (docs.length === 0) continue;
        const entries = docs
          .flatMap((d) => d.outbox ?? [])
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
        const producer = await connect();
        await producer.sendBatch({
          acks: -1,
          topicMessages: batchByTopic(
            entries.map((e) => ({ topic: e.topic, key: e.key, value: JSON.stringify(e.envelope) })),
          ),
        });
        for (const doc of docs) {
          const sentIds = (doc.outbox ?? []).map((e) => e.id);
          await collection.updateOne(
            { _id: doc._id },
            { $pull: { outbox: { id: { $in: sentIds } } } },
          );
          if (doc.deletedAt) {
            await collection.deleteOne({
              _id: doc._id,
              deletedAt: { $ne: null },
              'outbox.0': { $exists: false },
            });
          }
        }
        sent += entries.length;
      }
      return sent;
    },
  });
}
