import type { Kafka } from 'kafkajs';
import { batchByTopic, startRelayLoop, type Logger, type OutboxRelay } from '@wayfarer/service-kit';
import type { JournalEntriesStore } from '../store/entries';
import { PUBLISHED_TOPICS } from './outbox';

export interface JournalRelayOptions {
  entries: JournalEntriesStore;
  kafka: Kafka;
  logger: Logger;
  pollIntervalMs?: number;
  batchSize?: number;
}

/**
 * Relays the entries' outbox events to Kafka: service-kit's relay loop (poll, back off while
 * Kafka is down, rebuild the producer) with the publishing step of `startMongoOutboxRelay`,
 * except that the acknowledgement (`$pullAll`) goes through the entries store, which
 * serializes it with saves of the same document. With `startMongoOutboxRelay` itself, a save
 * landing during the relay's `$pullAll` was overwritten on FerretDB v1 (a lost journal text).
 */
export function startJournalRelay(options: JournalRelayOptions): OutboxRelay {
  const { entries } = options;
  const batchSize = options.batchSize ?? 100;
  return startRelayLoop({
    name: 'journal-outbox-relay',
    kafka: options.kafka,
    logger: options.logger,
    topics: PUBLISHED_TOPICS,
    pollIntervalMs: options.pollIntervalMs,
    async publishPending(connect) {
      const docs = await entries.pendingOutbox(batchSize);
      if (docs.length === 0) return 0;
      const pending = docs
        .flatMap((d) => d.outbox)
        .sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime());
      const producer = await connect();
      await producer.sendBatch({
        acks: -1,
        topicMessages: batchByTopic(
          pending.map((e) => ({ topic: e.topic, key: e.key, value: JSON.stringify(e.envelope) })),
        ),
      });
      for (const doc of docs) await entries.ackOutbox(doc._id, doc.outbox);
      return pending.length;
    },
  });
}
