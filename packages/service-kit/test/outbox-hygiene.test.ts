import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, makeEvent } from '@wayfarer/contracts';
import { dropDatabase, freshDatabase, testInfra } from '@wayfarer/test-kit';
import { createKafka } from '../src/kafka';
import { createLogger } from '../src/logger';
import {
  createPgPool,
  enqueueEvent,
  migrate,
  outboxMigrations,
  processedEventsMigrations,
  pruneOutboxHistory,
  startOutboxRelay,
  withTransaction,
  type Pool,
} from '../src/pg';
import { dropTopics, readTopicToEnd, scratchTopic, tally } from './topic-log';

const DAY = 24 * 60 * 60 * 1000;

describe('PostgreSQL outbox hygiene (real PostgreSQL + Kafka)', () => {
  let url: string;
  let pool: Pool;
  const logger = createLogger('kit-hygiene-test', 'silent');
  const kafka = createKafka({ clientId: 'kit-hygiene', brokers: testInfra().kafkaBrokers, logger });
  const topics: string[] = [];

  async function eventOn(name: string) {
    const topic = await scratchTopic(name);
    topics.push(topic);
    return defineEvent({
      topic,
      type: 'test.hygiene',
      version: 1,
      payload: z.object({ n: z.number() }),
    });
  }

  /** Inserts an outbox row as if written `ageMs` ago, published then or never. */
  async function outboxRow(ageMs: number, published: boolean): Promise<string> {
    const id = randomUUID();
    await pool.query(
      `INSERT INTO outbox (id, topic, key, envelope, created_at, published_at)
       VALUES ($1, 'test.never-sent', 'k', '{}'::jsonb, now() - make_interval(secs => $2),
               CASE WHEN $3 THEN now() - make_interval(secs => $2) END)`,
      [id, ageMs / 1000, published],
    );
    return id;
  }

  async function marker(ageMs: number): Promise<string> {
    const id = randomUUID();
    await pool.query(
      `INSERT INTO processed_events (consumer, event_id, processed_at)
       VALUES ('hygiene', $1, now() - make_interval(secs => $2))`,
      [id, ageMs / 1000],
    );
    return id;
  }

  async function outboxIds(ids: string[]): Promise<string[]> {
    const { rows } = await pool.query<{ id: string }>(
      'SELECT id FROM outbox WHERE id = ANY($1::uuid[]) ORDER BY id',
      [ids],
    );
    return rows.map((r) => r.id);
  }

  async function markerIds(ids: string[]): Promise<string[]> {
    const { rows } = await pool.query<{ event_id: string }>(
      'SELECT event_id FROM processed_events WHERE event_id = ANY($1::uuid[]) ORDER BY event_id',
      [ids],
    );
    return rows.map((r) => r.event_id);
  }

  beforeAll(async () => {
    url = await freshDatabase('hygiene');
    pool = createPgPool(url);
    await migrate(pool, [...outboxMigrations, ...processedEventsMigrations]);
  });
  afterAll(async () => {
    await pool.end();
    await dropDatabase(url);
    await dropTopics(topics);
  });

  it('prunes old published rows and old consumer markers, never unpublished or recent ones', async () => {
    await pool.query("DELETE FROM outbox WHERE topic = 'test.never-sent'");
    const oldPublished = await Promise.all([1, 2, 3, 4, 5].map(() => outboxRow(8 * DAY, true)));
    const oldUnpublished = await outboxRow(30 * DAY, false);
    const recentPublished = await outboxRow(DAY, true);
    const oldMarkers = await Promise.all([1, 2, 3].map(() => marker(8 * DAY)));
    const recentMarker = await marker(60_000);

    // batches of 2: one call removes 2 rows, then the next, until nothing old is left
    let removed = 0;
    for (let n = await pruneOutboxHistory(pool, 7 * DAY, 2); n > 0;) {
      expect(n).toBeLessThanOrEqual(4); // 2 outbox rows + 2 markers per call at most
      removed += n;
      n = await pruneOutboxHistory(pool, 7 * DAY, 2);
    }
    expect(removed).toBe(oldPublished.length + oldMarkers.length);
    const kept = [oldUnpublished, recentPublished].sort();
    expect(await outboxIds([...oldPublished, oldUnpublished, recentPublished])).toEqual(kept);
    expect(await markerIds([...oldMarkers, recentMarker])).toEqual([recentMarker]);
    await pool.query('DELETE FROM outbox WHERE id = $1', [oldUnpublished]);
  });

  it('has indexes the prune queries can use', async () => {
    const plan = async (sql: string) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SET LOCAL enable_seqscan = off'); // tiny tables: show it can, not cost
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`);
        await client.query('ROLLBACK');
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        client.release();
      }
    };
    expect(
      await plan(`SELECT seq FROM outbox WHERE published_at IS NOT NULL
                   AND published_at < now() - interval '7 days' ORDER BY published_at LIMIT 10`),
    ).toMatch(/Index (Only )?Scan using outbox_published/);
    expect(
      await plan(`SELECT consumer, event_id FROM processed_events
                   WHERE processed_at < now() - interval '7 days' ORDER BY processed_at LIMIT 10`),
    ).toMatch(/Index Scan using processed_events_at/);
  });

  it('prunes from the relay loop, at most once per interval', async () => {
    const Ev = await eventOn('prune-loop');
    const first = await outboxRow(8 * DAY, true);
    const firstMarker = await marker(8 * DAY);
    const relay = startOutboxRelay({
      pool,
      kafka,
      logger,
      topics: [Ev.topic],
      pollIntervalMs: 20,
      pruneIntervalMs: 60 * 60 * 1000,
    });
    try {
      await expect.poll(() => outboxIds([first]), { timeout: 15_000 }).toEqual([]);
      expect(await markerIds([firstMarker])).toEqual([]);

      // within the interval: the relay keeps publishing, the next old row stays
      const second = await outboxRow(8 * DAY, true);
      const event = makeEvent(Ev, randomUUID(), { n: 1 });
      await withTransaction(pool, (c) => enqueueEvent(c, Ev.topic, event));
      relay.kick();
      await expect
        .poll(
          async () =>
            (await pool.query('SELECT published_at FROM outbox WHERE id = $1', [event.id])).rows[0]
              ?.published_at ?? null,
          { timeout: 15_000 },
        )
        .not.toBeNull();
      expect(await outboxIds([second])).toEqual([second]);
      // an explicit prune (what the next interval does) takes it
      await relay.prune();
      expect(await outboxIds([second])).toEqual([]);
    } finally {
      await relay.stop();
    }
  });

  it('two relays over one outbox publish every row exactly once (SKIP LOCKED held over the send)', async () => {
    const Ev = await eventOn('pg-two-relays');
    const events = Array.from({ length: 120 }, (_, n) => makeEvent(Ev, randomUUID(), { n }));
    await withTransaction(pool, async (c) => {
      for (const e of events) await enqueueEvent(c, Ev.topic, e);
    });
    const relays = [1, 2].map(() =>
      startOutboxRelay({
        pool,
        kafka,
        logger,
        topics: [Ev.topic],
        pollIntervalMs: 1,
        batchSize: 5,
      }),
    );
    try {
      await expect
        .poll(
          async () =>
            (
              await pool.query<{ n: string }>(
                'SELECT count(*) AS n FROM outbox WHERE topic = $1 AND published_at IS NULL',
                [Ev.topic],
              )
            ).rows[0]!.n,
          { timeout: 30_000 },
        )
        .toBe('0');
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
    const counts = tally((await readTopicToEnd<{ id: string }>(Ev.topic)).map((e) => e.id));
    expect(counts.size).toBe(events.length);
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
  });
});
