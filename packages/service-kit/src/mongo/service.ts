import type { Kafka } from 'kafkajs';
import type { Collection, Db, Document, MongoClient } from 'mongodb';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Topic } from '@wayfarer/contracts';
import { createKafka } from '../kafka';
import type { Closer } from '../lifecycle';
import { createLogger } from '../logger';
import { loadIdentityProofSecret, type IdentityProofEnv } from '../identity-proof';
import type { OutboxRelay } from '../relay';
import { connectMongo } from './connect';
import { startIdempotencyPruner, type MongoIdempotency } from './idempotency';
import { startMongoOutboxRelay } from './outbox';

/** Env fragment of a MongoDB service whose database is `defaultDb` unless MONGO_DB says. */
export function mongoEnv(defaultDb: string) {
  return {
    MONGO_URL: z.string().min(1),
    MONGO_DB: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be a plain database name')
      .default(defaultDb),
  };
}

export interface MongoServiceEnv extends IdentityProofEnv {
  LOG_LEVEL?: string;
  MONGO_URL: string;
  MONGO_DB: string;
  KAFKA_BROKERS: string[];
  OUTBOX_POLL_MS?: number;
}

export interface MongoService<S> {
  logger: Logger;
  identityProofSecret: Buffer;
  client: MongoClient;
  db: Db;
  stores: S;
  kafka: Kafka;
}

export interface MongoServiceOptions<S> {
  name: string;
  env: MongoServiceEnv;
  /** Makes the service's stores on the database and prepares them (indexes). */
  stores: (db: Db) => Promise<S>;
  onClose: (closer: Closer) => void;
  /**
   * The stores' idempotent creates (`MongoIdempotency`): their unique index is made at start
   * and their expired keys pruned every 10 minutes until close.
   */
  idempotent?: (stores: S) => MongoIdempotency<Document>[];
}

export interface MongoServiceOutbox<S> {
  /** What the relay publishes. */
  topics: readonly Topic[];
  /** The aggregate collections whose documents carry pending events. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any aggregate collection
  collections: (stores: S) => Collection<any>[];
}

/**
 * What every MongoDB service's composition root opens first: its logger and identity-proof
 * secret, the client and database, its stores (made and prepared by `stores`), the Kafka
 * client and, given `outbox`, the outbox relay. Closers go to `onClose` (`composeService`):
 * the relay stops before the client closes.
 */
export async function openMongoService<S>(
  options: MongoServiceOptions<S> & { outbox: MongoServiceOutbox<S> },
): Promise<MongoService<S> & { relay: OutboxRelay }>;
export async function openMongoService<S>(
  options: MongoServiceOptions<S> & { outbox?: undefined },
): Promise<MongoService<S>>;
export async function openMongoService<S>(
  options: MongoServiceOptions<S> & { outbox?: MongoServiceOutbox<S> },
): Promise<MongoService<S> & { relay?: OutboxRelay }> {
  const { name, env, onClose } = options;
  const logger = createLogger(name, env.LOG_LEVEL);
  const identityProofSecret = loadIdentityProofSecret(env);

  const { client, db } = await connectMongo(env.MONGO_URL, env.MONGO_DB);
  onClose(() => client.close());
  const stores = await options.stores(db);
  if (options.idempotent) {
    const idempotent = options.idempotent(stores);
    for (const store of idempotent) await store.init();
    const pruner = startIdempotencyPruner({ stores: idempotent, logger });
    onClose(() => pruner.stop());
  }

  const kafka = createKafka({ clientId: name, brokers: env.KAFKA_BROKERS, logger });
  const opened = { logger, identityProofSecret, client, db, stores, kafka };
  if (!options.outbox) return opened;
  const relay = startMongoOutboxRelay({
    collections: options.outbox.collections(stores),
    kafka,
    logger,
    topics: options.outbox.topics,
    pollIntervalMs: env.OUTBOX_POLL_MS,
  });
  onClose(() => relay.stop());
  return { ...opened, relay };
}
