import { randomBytes } from 'node:crypto';
import { vi } from 'vitest';
import type { Topic } from '@wayfarer/contracts';
import { testKafka, uniqueSuffix } from '@wayfarer/test-kit';

/** The topic the kit's own consumer tests share (no service produces or consumes it). */
export const KIT_TEST_TOPIC = 'test.service-kit.v1' as Topic;

/** A topic of its own for one test, so counting its messages counts only the test's. */
export function scratchTopic(name: string): Topic {
  return `test.${name}.${uniqueSuffix()}${randomBytes(2).toString('hex')}` as Topic;
}

/**
 * Asks Kafka to delete scratch topics, without waiting for it to finish (kafkajs would poll
 * the metadata for seconds until they are gone).
 */
export async function dropTopics(topics: readonly string[]): Promise<void> {
  const admin = testKafka().admin({ retry: { retries: 0 } });
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [...topics], timeout: 500 }).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

/**
 * Every message of `topic` as it stands now (from the beginning up to each partition's current
 * end offset), parsed as JSON: a log to count duplicates in. Call it after the producers have
 * stopped.
 */
export async function readTopicToEnd<T>(topic: string): Promise<T[]> {
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  const ends = new Map(
    offsets.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high)]),
  );
  const read = new Map<number, number>(); // partition -> next offset read
  const messages: T[] = [];
  if (ends.size === 0) return messages;
  const consumer = kafka.consumer({ groupId: `test-${uniqueSuffix()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        const offset = Number(message.offset);
        if (offset >= (ends.get(partition) ?? 0)) return;
        if (message.value) messages.push(JSON.parse(message.value.toString()) as T);
        read.set(partition, offset + 1);
      },
    });
    await vi.waitFor(
      () => {
        for (const [partition, end] of ends) {
          if ((read.get(partition) ?? 0) < end) throw new Error(`partition ${partition} not read`);
        }
      },
      { timeout: 20_000, interval: 50 },
    );
  } finally {
    await consumer.disconnect();
  }
  return messages;
}

/** How many times each value occurs. */
export function tally(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}
