import type { Kafka } from 'kafkajs';
import type pg from 'pg';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Topic } from '@wayfarer/contracts';
import { createKafka } from '../kafka';
import type { Closer } from '../lifecycle';
import { createLogger } from '../logger';
import { loadIdentityProofSecret, type IdentityProofEnv } from '../identity-proof';
import type { OutboxRelay } from '../relay';
import { processedEventsMigrations } from './processed-events';
import { migrate, type Migration } from './migrate';
import { outboxMigrations, startOutboxRelay } from './outbox';
import { createPgPool, ensureDatabase } from './pool';

/** Env fragment of a PostgreSQL service (spread it into the schema). */
export const pgEnv = {
  DATABASE_URL: z.string().min(1),
  /**
   * Optional: the PostgreSQL server as an admin may reach it (compose). When set, the database
   * DATABASE_URL names is created on start if it is missing; production provisions it instead.
   */
  PG_URL: z.string().min(1).optional(),
};

/**
 * The first migrations of a PostgreSQL service that publishes through the outbox and consumes
 * idempotently: spread them before the service's own.
 */
export const pgServiceMigrations: readonly Migration[] = [
  ...outboxMigrations,
  ...processedEventsMigrations,
];

export interface PgServiceEnv extends IdentityProofEnv {
  LOG_LEVEL?: string;
  DATABASE_URL: string;
  PG_URL?: string;
  KAFKA_BROKERS: string[];
  OUTBOX_POLL_MS?: number;
}

export interface PgService {
  logger: Logger;
  identityProofSecret: Buffer;
  pool: pg.Pool;
  kafka: Kafka;
  relay: OutboxRelay;
}

/**
 * What every PostgreSQL service's composition root opens first: its logger and identity-proof
 * secret, the database (created first when PG_URL is set), the pool with `migrations` applied,
 * the Kafka client and the outbox relay publishing `topics`. Closers go to `onClose`
 * (`composeService`): the relay stops before the pool ends.
 */
export async function openPgService(options: {
  name: string;
  env: PgServiceEnv;
  migrations: readonly Migration[];
  topics: readonly Topic[];
  onClose: (closer: Closer) => void;
}): Promise<PgService> {
  const { name, env, onClose } = options;
  const logger = createLogger(name, env.LOG_LEVEL);
  const identityProofSecret = loadIdentityProofSecret(env);

  if (env.PG_URL) {
    await ensureDatabase(env.PG_URL, new URL(env.DATABASE_URL).pathname.slice(1));
  }
  const pool = createPgPool(env.DATABASE_URL);
  onClose(() => pool.end());
  await migrate(pool, options.migrations);

  const kafka = createKafka({ clientId: name, brokers: env.KAFKA_BROKERS, logger });
  const relay = startOutboxRelay({
    pool,
    kafka,
    logger,
    topics: options.topics,
    pollIntervalMs: env.OUTBOX_POLL_MS,
  });
  onClose(() => relay.stop());
  return { logger, identityProofSecret, pool, kafka, relay };
}
