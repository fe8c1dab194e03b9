import { MongoClient } from 'mongodb';
import { testInfra } from './infra';
import { testKafka, uniqueSuffix } from './helpers';
import { TEST_IDENTITY_PROOF_SECRET } from './identity';

/**
 * The env a service's composition root (`createService(env)`) gets in a test, as strings for
 * the service's own `loadConfig(schema, env)`: the test infra, logs off (`TEST_LOG_LEVEL` to
 * see them), a fast outbox relay, consumer groups of its own (`KAFKA_GROUP_PREFIX`) and the
 * test identity proof secret (`throughGateway`, `gatewayHeaders`). Add the service's database
 * and bucket names.
 */
export function testServiceEnv(extra: Record<string, string> = {}): Record<string, string> {
  const infra = testInfra();
  return {
    REDIS_URL: infra.redisUrl,
    KAFKA_BROKERS: infra.kafkaBrokers.join(','),
    KAFKA_GROUP_PREFIX: `t-${uniqueSuffix()}-`,
    OUTBOX_POLL_MS: '100',
    S3_ENDPOINT: infra.s3.endpoint,
    S3_ACCESS_KEY: infra.s3.accessKey,
    S3_SECRET_KEY: infra.s3.secretKey,
    MONGO_URL: infra.mongoUrl,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    IDENTITY_PROOF_SECRET: TEST_IDENTITY_PROOF_SECRET,
    ...extra,
  };
}

/** Removes a test's consumer groups from the shared broker (best effort). */
export async function dropConsumerGroups(groupIds: string[]): Promise<void> {
  const admin = testKafka().admin();
  try {
    await admin.connect();
    await admin.deleteGroups(groupIds);
  } catch {
    // a group still settling after its consumer left: harmless, Kafka expires it later
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Drops a test's MongoDB database (after the service using it closed its own client). */
export async function dropMongoDatabase(name: string): Promise<void> {
  const client = new MongoClient(testInfra().mongoUrl, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
}
