import { randomBytes } from 'node:crypto';
import { vi } from 'vitest';
import type { Topic } from '@wayfarer/contracts';
import { readTopicToEnd as readAll, testKafka, uniqueSuffix } from '@wayfarer/test-kit';

/** The topic the kit's own consumer tests share (no service produces or consumes it). */
export const KIT_TEST_TOPIC = 'test.service-kit.v1' as Topic;

const WARM_UP_KEY = 'warm-up';

/**
 * A topic of its own for one test, so counting its messages counts only the test's. It is
 * created, and written once on every partition, before the test's relays start: a partition of
 * a topic created a moment ago may refuse writes for a while, and a batch refused on one
 * partition is sent again whole (Kafka-level at-least-once duplicates, not what these tests
 * count). `readTopicToEnd` skips the warm-up messages.
 */
export async function scratchTopic(name: string, partitions = 3): Promise<Topic> {
  const topic = `test.${name}.${uniqueSuffix()}${randomBytes(2).toString('hex')}` as Topic;
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic, numPartitions: partitions }],
    });
  } finally {
    await admin.disconnect();
  }
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    for (let partition = 0; partition < partitions; partition++) {
      await vi.waitFor(
        () =>
          producer.send({
            topic,
            acks: -1,
            messages: [{ partition, key: WARM_UP_KEY, value: '{}' }],
          }),
        { timeout: 20_000, interval: 100 },
      );
    }
  } finally {
    await producer.disconnect();
  }
  return topic;
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
 * end offset), parsed as JSON, warm-up messages left out: a log to count duplicates in. Call it
 * after the producers have stopped.
 */
export async function readTopicToEnd<T>(topic: string): Promise<T[]> {
  const messages = await readAll(topic);
  return messages.filter((m) => m.key !== WARM_UP_KEY).map((m) => m.json as T);
}

/** How many times each value occurs. */
export function tally(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}
