import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, makeEvent, Topics } from '@wayfarer/contracts';
import { dropDatabase, freshDatabase, testInfra, waitForEvents } from '@wayfarer/test-kit';
import { createKafka } from '../src/kafka';
import { createLogger } from '../src/logger';
import {
  createPgPool,
  enqueueEvent,
  eraseFromOutbox,
  migrate,
  outboxMigrations,
  startOutboxRelay,
  withTransaction,
  type Pool,
} from '../src/pg';

const Named = defineEvent({
  topic: Topics.authUser,
  type: 'test.named',
  version: 1,
  payload: z.object({ userId: z.string(), n: z.number() }),
});

describe('outbox erasure (real PostgreSQL + Kafka)', () => {
  let url: string;
  let pool: Pool;
  const logger = createLogger('service-kit-test', 'silent');
  const kafka = createKafka({ clientId: 'kit-test', brokers: testInfra().kafkaBrokers, logger });
  const rowsNaming = async (text: string) =>
    (
      await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM outbox WHERE strpos(envelope::text, $1) > 0',
        [text],
      )
    ).rows[0]!.n;

  beforeAll(async () => {
    url = await freshDatabase('kit_erase');
    pool = createPgPool(url);
    await migrate(pool, outboxMigrations);
  });
  afterAll(async () => {
    await pool.end();
    await dropDatabase(url);
  });

  it('erases the rows naming a user, keeps the erasure’s own, which the relay forgets once sent', async () => {
    const user = randomUUID();
    const other = randomUUID();
    // history: one published row naming the user (by key), one naming them in its payload
    // only, one unpublished; and another user's row, which stays
    await withTransaction(pool, async (c) => {
      await enqueueEvent(c, Named.topic, makeEvent(Named, user, { userId: user, n: 1 }));
      await enqueueEvent(c, Named.topic, makeEvent(Named, other, { userId: user, n: 2 }));
      await enqueueEvent(c, Named.topic, makeEvent(Named, other, { userId: other, n: 3 }));
    });
    await pool.query('UPDATE outbox SET published_at = now()');
    await withTransaction(pool, (c) =>
      enqueueEvent(c, Named.topic, makeEvent(Named, user, { userId: user, n: 4 })),
    );
    expect(await rowsNaming(user)).toBe(3);

    const erasure = makeEvent(Named, user, { userId: user, n: 5 });
    const erased = await withTransaction(pool, async (c) => {
      const n = await eraseFromOutbox(c, user);
      await enqueueEvent(c, Named.topic, erasure, { forgetOnPublish: true });
      return n;
    });
    expect(erased).toBe(3);
    expect(await rowsNaming(user)).toBe(1); // the erasure's own event, waiting to go out
    expect(await rowsNaming(other)).toBe(1);

    const relay = startOutboxRelay({
      pool,
      kafka,
      logger,
      topics: [Named.topic],
      pollIntervalMs: 50,
    });
    try {
      const events = await waitForEvents<{
        id: string;
        aggregateId: string;
        payload: { n: number };
      }>(Named.topic, (e) => e.aggregateId === user);
      expect(events.map((e) => e.payload.n)).toContain(5);
      await relay.flush();
      // sent, then forgotten: nothing names the user any more; the other's history stays
      expect(await rowsNaming(user)).toBe(0);
      expect(await rowsNaming(other)).toBe(1);
    } finally {
      await relay.stop();
    }
  });
});
