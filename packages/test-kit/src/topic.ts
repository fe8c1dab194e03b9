import { testKafka, uniqueSuffix } from './helpers';

export interface TopicMessage {
  key: string | null;
  /** The value parsed as JSON, or null when it is empty or not JSON (other tests' junk). */
  json: unknown;
}

/**
 * Every message of `topic` as it stands now: read from the beginning up to each partition's
 * current end offset, with a consumer group of its own. A log to count events (and duplicates)
 * in; call it once the producers are done (e.g. after an outbox is drained).
 */
export async function readTopicToEnd(topic: string, timeoutMs = 30_000): Promise<TopicMessage[]> {
  const kafka = testKafka();
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(topic).finally(() => admin.disconnect());
  const ends = new Map(
    offsets.filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high)]),
  );
  const messages: TopicMessage[] = [];
  if (ends.size === 0) return messages;
  const read = new Map<number, number>(); // partition -> next offset read
  const done = () => [...ends].every(([partition, end]) => (read.get(partition) ?? 0) >= end);
  const consumer = kafka.consumer({ groupId: `test-${uniqueSuffix()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${topic} not read to its end within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const finish = () => {
        clearTimeout(timer);
        resolve();
      };
      consumer.subscribe({ topic, fromBeginning: true }).then(
        () =>
          consumer.run({
            eachMessage: async ({ partition, message }) => {
              const offset = Number(message.offset);
              if (offset >= (ends.get(partition) ?? 0)) return;
              messages.push({
                key: message.key?.toString() ?? null,
                json: parseJson(message.value),
              });
              read.set(partition, offset + 1);
              if (done()) finish();
            },
          }),
        reject,
      );
    });
  } finally {
    await consumer.disconnect();
  }
  return messages;
}

function parseJson(value: Buffer | null): unknown {
  if (!value || value.length === 0) return null;
  try {
    return JSON.parse(value.toString()) as unknown;
  } catch {
    return null;
  }
}
