import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { inject } from 'vitest';
import { collectionsHolding, tablesHolding, testInfra, testS3Client } from '@wayfarer/test-kit';

/**
 * Every store of the e2e stack, scanned generically for text (the erasure test's): every
 * table of every PostgreSQL database of the stack (`<service>_<namespace>`), every collection of
 * every MongoDB database of it, every object key of its buckets (`<bucket>-<namespace>`), and
 * every Redis key name. Each place holding one of `texts` is named, e.g.
 * `postgres social_e2e public.users`, `mongo chat_e2e.messages`, `bucket photos-e2e <key>`,
 * `redis <key>`. Kafka's topics are not scanned: they keep the event history for their
 * retention (docs/architecture.md, "Erasure").
 */
export async function storesHolding(texts: readonly string[]): Promise<string[]> {
  const namespace = inject('namespace');
  const infra = testInfra();
  const holds = (s: string) => texts.some((t) => s.includes(t));
  const found: string[] = [];

  const admin = new pg.Client({ connectionString: infra.pgUrl });
  await admin.connect();
  let databases: string[];
  try {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE '%\\_' || $1`,
      [namespace],
    );
    databases = rows.map((r) => r.datname);
  } finally {
    await admin.end();
  }
  for (const database of databases) {
    const url = new URL(infra.pgUrl);
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      for (const table of await tablesHolding(client, texts)) {
        found.push(`postgres ${database} ${table}`);
      }
    } finally {
      await client.end();
    }
  }

  const mongo = await MongoClient.connect(infra.mongoUrl);
  try {
    const { databases: dbs } = await mongo.db('admin').admin().listDatabases();
    for (const { name: dbName } of dbs.filter((d) => d.name.endsWith(`_${namespace}`))) {
      for (const name of await collectionsHolding(mongo.db(dbName), texts)) {
        found.push(`mongo ${dbName}.${name}`);
      }
    }
  } finally {
    await mongo.close();
  }

  const minio = testS3Client();
  for (const bucket of await minio.listBuckets()) {
    if (!bucket.name.endsWith(`-${namespace}`)) continue;
    for await (const item of minio.listObjectsV2(bucket.name, '', true)) {
      const key = (item as { name?: string }).name;
      if (key && holds(key)) found.push(`bucket ${bucket.name} ${key}`);
    }
  }

  const redis = new Redis(infra.redisUrl, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) if (holds(key)) found.push(`redis ${key}`);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return found;
}
