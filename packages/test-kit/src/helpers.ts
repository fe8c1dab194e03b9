import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { quietKafkaRequestQueue } from '@wayfarer/service-kit';
import { testInfra } from './infra';

/** A short unique suffix for names made by a test. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

/** Creates an empty database for one test file and returns its URL. */
export async function freshDatabase(prefix: string): Promise<string> {
  const { pgUrl } = testInfra();
  const name = `t_${prefix.replace(/[^a-z0-9]/gi, '').toLowerCase()}_${uniqueSuffix()}`;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by `freshDatabase`. */
export async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: testInfra().pgUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export function testKafka(clientId = `test-${uniqueSuffix()}`): Kafka {
  quietKafkaRequestQueue(); // as the services' clients are (service-kit kafka-idle.ts)
  return new Kafka({
    clientId,
    brokers: testInfra().kafkaBrokers,
    logLevel: logLevel.NOTHING,
    retry: { retries: 10, initialRetryTime: 200, maxRetryTime: 2000 },
  });
}

/** Creates `topic` if it does not exist yet (a consumer cannot subscribe before). */
async function ensureTopic(kafka: Kafka, topic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) {
      await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 3 }] });
    }
  } finally {
    await admin.disconnect();
  }
}

/**
 * Reads `topic` from the beginning with a fresh consumer group until `match` has found
 * `count` events, or fails after `timeoutMs`. Returns the matched envelopes (parsed JSON).
 */
export async function waitForEvents<T = Record<string, unknown>>(
  topic: string,
  match: (event: T) => boolean,
  { count = 1, timeoutMs = 20_000 }: { count?: number; timeoutMs?: number } = {},
): Promise<T[]> {
  const kafka = testKafka();
  const consumer = kafka.consumer({ groupId: `test-${uniqueSuffix()}`, maxWaitTimeInMs: 100 });
  const found: T[] = [];
  await ensureTopic(kafka, topic);
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `timed out after ${timeoutMs} ms waiting for ${count} event(s) on ${topic}; got ${found.length}`,
            ),
          ),
        timeoutMs,
      );
      void consumer.run({
        eachMessage: async ({ message }) => {
          if (!message.value) return;
          const event = JSON.parse(message.value.toString()) as T;
          if (match(event)) found.push(event);
          if (found.length >= count) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return found;
}
