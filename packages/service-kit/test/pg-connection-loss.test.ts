import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEvent, makeEvent, type Topic } from '@wayfarer/contracts';
import { dropDatabase, freshDatabase, testInfra, waitForEvents } from '@wayfarer/test-kit';
import { startTcpProxy, type TcpProxy } from '@wayfarer/test-kit/faults';
import { createKafka } from '../src/kafka';
import { createLogger } from '../src/logger';
import {
  createPgPool,
  enqueueEvent,
  processedEventsHandler,
  migrate,
  outboxMigrations,
  processedEventsMigrations,
  startOutboxRelay,
  withTransaction,
  type Pool,
} from '../src/pg';
import { dropTopics, KIT_TEST_TOPIC, scratchTopic } from './topic-log';

/** What pg says when the socket under a client goes away (or a later query on that client). */
const CONNECTION_LOST = /Connection terminated|ECONNRESET|EPIPE|not queryable/;

/**
 * PostgreSQL going away while a client is checked out of the pool, between two of its queries:
 * pg emits 'error' on that client, and with no listener that is an uncaught exception that
 * kills the process (a relay or a request mid-transaction when the database restarts). The
 * real server is reached through a TCP proxy that the test cuts; it keeps running for the
 * test's own checks (`direct`).
 */
describe('a PostgreSQL connection lost mid-transaction (real server, cut proxy)', () => {
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  const logger = createLogger('service-kit-test', 'silent');
  let url: string;
  let pgProxy: TcpProxy;
  /** The pool under test, through the proxy. */
  let pool: Pool;
  /** The test's own view of the database, not through the proxy. */
  let direct: Pool;

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    url = await freshDatabase('kit_pg_loss');
    pgProxy = await startTcpProxy();
    pool = createPgPool(pgProxy.route(url));
    direct = createPgPool(url, 2);
    await migrate(pool, [...outboxMigrations, ...processedEventsMigrations]);
  });
  afterEach(() => {
    pgProxy.restore();
    const seen = uncaught.splice(0);
    expect(seen).toEqual([]);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await pool?.end();
    await direct?.end();
    await pgProxy?.close();
    if (url) await dropDatabase(url);
  });

  it('withTransaction rejects with the lost connection, discards the client, and works again once PostgreSQL is reachable', async () => {
    const marker = randomUUID();
    const attempt = withTransaction(pool, async (client) => {
      await client.query('CREATE TABLE IF NOT EXISTS marks (id uuid PRIMARY KEY)');
      await client.query('INSERT INTO marks (id) VALUES ($1)', [marker]);
      pgProxy.cut();
      await client.query('SELECT 1 -- a query on the cut connection');
    });
    await expect(attempt).rejects.toThrow(CONNECTION_LOST);
    // no client of the pool is left with a dead connection (the one in use was discarded)
    await vi.waitFor(() => expect(pool.totalCount).toBe(0));
    expect(uncaught).toEqual([]);

    pgProxy.restore();
    await withTransaction(pool, async (client) => {
      await client.query('CREATE TABLE IF NOT EXISTS marks (id uuid PRIMARY KEY)');
      await client.query('INSERT INTO marks (id) VALUES ($1)', [randomUUID()]);
    });
    // the cut transaction was never committed; the next one was
    const { rows } = await direct.query<{ id: string }>('SELECT id FROM marks');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(marker);
  });

  it('an idempotent handler whose connection is lost applies the event when it is redelivered', async () => {
    const applied: string[] = [];
    let cutOnce = true;
    const handle = processedEventsHandler(pool, 'loss-test', async (client, event) => {
      if (cutOnce) {
        cutOnce = false;
        pgProxy.cut();
      }
      await client.query('SELECT 1');
      applied.push(event.id);
    });
    const Ping = defineEvent({
      topic: KIT_TEST_TOPIC,
      type: 'test.ping',
      version: 1,
      payload: z.object({ n: z.number() }),
    });
    const event = makeEvent(Ping, randomUUID(), { n: 1 });
    await expect(handle(event)).rejects.toThrow(CONNECTION_LOST);
    expect(uncaught).toEqual([]);
    pgProxy.restore();
    // its marker was not committed with the lost transaction: the redelivery applies it once
    expect(await handle(event)).toBe(true);
    expect(await handle(event)).toBe(false);
    expect(applied).toEqual([event.id]);
  });

  describe('the outbox relay', () => {
    let topic: Topic;
    let kafkaProxy: TcpProxy;
    beforeAll(async () => {
      topic = await scratchTopic('pg-loss', 1);
      kafkaProxy = await startTcpProxy(`tcp://${testInfra().kafkaBrokers[0]!}`);
    });
    afterAll(async () => {
      await kafkaProxy?.close();
      if (topic) await dropTopics([topic]);
    });

    it('counts a connection lost mid-round as a failed round, and publishes once PostgreSQL is back', async () => {
      const Ping = defineEvent({
        topic,
        type: 'test.ping',
        version: 1,
        payload: z.object({ n: z.number() }),
      });
      const event = makeEvent(Ping, randomUUID(), { n: 1 });
      await withTransaction(pool, (client) => enqueueEvent(client, Ping.topic, event));

      // Kafka's bootstrap connection is held: the relay's round locks the row, then waits for
      // Kafka with its transaction open (a client between two queries)
      kafkaProxy.freeze();
      const kafka = createKafka({
        clientId: 'kit-pg-loss',
        brokers: [`127.0.0.1:${kafkaProxy.port}`],
        logger,
      });
      const relay = startOutboxRelay({
        pool,
        kafka,
        logger,
        topics: [Ping.topic],
        pollIntervalMs: 50,
      });
      try {
        const database = new URL(url).pathname.slice(1);
        const roundInTransaction = async () => {
          const { rows } = await direct.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity
              WHERE datname = $1 AND state = 'idle in transaction'
                AND query LIKE '%FOR UPDATE SKIP LOCKED%'`,
            [database],
          );
          return rows.map((r) => r.pid);
        };
        await vi.waitFor(async () => expect(await roundInTransaction()).toHaveLength(1), {
          timeout: 10_000,
          interval: 20,
        });

        pgProxy.cut();
        // the server saw the connection go while the round's transaction was open
        await vi.waitFor(async () => expect(await roundInTransaction()).toEqual([]));

        pgProxy.restore();
        kafkaProxy.restore();
        await vi.waitFor(
          async () => {
            const { rows } = await direct.query<{ published_at: Date | null }>(
              'SELECT published_at FROM outbox WHERE id = $1',
              [event.id],
            );
            expect(rows[0]?.published_at).toBeInstanceOf(Date);
          },
          { timeout: 30_000, interval: 100 },
        );
        const sent = await waitForEvents<{ id: string }>(topic, (e) => e.id === event.id);
        expect(sent.length).toBeGreaterThanOrEqual(1); // at least once
        expect(uncaught).toEqual([]);
      } finally {
        await relay.stop();
      }
    });
  });
});
