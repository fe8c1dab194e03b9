import { randomUUID } from 'node:crypto';
import type { Collection, Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, makeEvent, Topics } from '@wayfarer/contracts';
import { testInfra, uniqueSuffix, waitForEvents } from '@wayfarer/test-kit';
import { createKafka } from '../src/kafka';
import { createLogger } from '../src/logger';
import {
  connectMongo,
  mongoProcessedEventsHandler,
  notDeleted,
  outboxEntry,
  startMongoOutboxRelay,
  withOutboxEvents,
  withPendingFlag,
  type WithOutbox,
} from '../src/mongo';

const Thing = defineEvent({
  topic: Topics.tripsTrip,
  type: 'test.thing',
  version: 1,
  payload: z.object({ step: z.string() }),
});

interface ThingDoc extends WithOutbox {
  _id: string;
  name: string;
}

describe('MongoDB outbox in the aggregate document (real MongoDB-wire server + Kafka)', () => {
  let client: MongoClient;
  let db: Db;
  const logger = createLogger('kit-mongo-test', 'silent');
  const kafka = createKafka({
    clientId: 'kit-mongo-test',
    brokers: testInfra().kafkaBrokers,
    logger,
  });

  const relayOf = (things: Collection<ThingDoc>, pollIntervalMs: number) =>
    startMongoOutboxRelay({
      collections: [things],
      kafka,
      logger,
      topics: [Thing.topic],
      pollIntervalMs,
    });

  beforeAll(async () => {
    ({ client, db } = await connectMongo(testInfra().mongoUrl, `t_kit_${uniqueSuffix()}`));
  });
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  });

  it('publishes the events written with a change, then removes them and soft-deleted documents', async () => {
    const things = db.collection<ThingDoc>('things');
    const id = randomUUID();
    const created = makeEvent(Thing, id, { step: 'created' });
    await things.insertOne(
      withPendingFlag({
        _id: id,
        name: 'first',
        deletedAt: null,
        outbox: [outboxEntry(Thing.topic, created)],
      }),
    );
    const deleted = makeEvent(Thing, id, { step: 'deleted' });
    await things.updateOne(
      { _id: id, ...notDeleted },
      withOutboxEvents<ThingDoc>({ $set: { deletedAt: new Date() } }, [
        outboxEntry(Thing.topic, deleted),
      ]),
    );
    expect((await things.findOne({ _id: id }))?.outbox).toHaveLength(2);

    const relay = relayOf(things, 50);
    try {
      const events = await waitForEvents<{ aggregateId: string; payload: { step: string } }>(
        Thing.topic,
        (e) => e.aggregateId === id,
        { count: 2 },
      );
      expect(events.map((e) => e.payload.step)).toEqual(['created', 'deleted']);
      await relay.flush();
      expect(await things.findOne({ _id: id })).toBeNull();
    } finally {
      await relay.stop();
    }
  });

  it('never loses a change that lands while the relay acknowledges earlier events', async () => {
    const things = db.collection<ThingDoc>('busy');
    const id = randomUUID();
    await things.insertOne({ _id: id, name: 'v0', deletedAt: null, outbox: [] });
    const relay = relayOf(things, 5);
    try {
      const steps = Array.from({ length: 60 }, (_, i) => `v${i + 1}`);
      for (const step of steps) {
        await things.updateOne(
          { _id: id },
          withOutboxEvents<ThingDoc>({ $set: { name: step } }, [
            outboxEntry(Thing.topic, makeEvent(Thing, id, { step })),
          ]),
        );
        relay.kick();
        // the write is never undone by the relay's acknowledgement of an older event
        expect((await things.findOne({ _id: id }))?.name).toBe(step);
      }
      const events = await waitForEvents<{ aggregateId: string; payload: { step: string } }>(
        Thing.topic,
        (e) => e.aggregateId === id,
        { count: steps.length },
      );
      expect(events.map((e) => e.payload.step)).toEqual(steps);
      await relay.flush();
      expect((await things.findOne({ _id: id }))?.outbox).toEqual([]);
    } finally {
      await relay.stop();
    }
  });

  it('never loses a soft-delete racing the relay publishing the creation', async () => {
    const things = db.collection<ThingDoc>('racing');
    const relay = relayOf(things, 1);
    try {
      const ids = Array.from({ length: 20 }, (): string => randomUUID());
      await Promise.all(
        ids.map(async (id) => {
          const created = makeEvent(Thing, id, { step: 'created' });
          await things.insertOne(
            withPendingFlag({
              _id: id,
              name: id,
              deletedAt: null,
              outbox: [outboxEntry(Thing.topic, created)],
            }),
          );
          relay.kick();
          const deleted = makeEvent(Thing, id, { step: 'deleted' });
          const result = await things.updateOne(
            { _id: id, ...notDeleted },
            withOutboxEvents<ThingDoc>({ $set: { deletedAt: new Date() } }, [
              outboxEntry(Thing.topic, deleted),
            ]),
          );
          expect(result.modifiedCount).toBe(1);
          relay.kick();
        }),
      );
      const events = await waitForEvents<{ aggregateId: string; payload: { step: string } }>(
        Thing.topic,
        (e) => ids.includes(e.aggregateId) && e.payload.step === 'deleted',
        { count: ids.length },
      );
      expect(new Set(events.map((e) => e.aggregateId)).size).toBe(ids.length);
      await relay.flush();
      expect(await things.countDocuments({ _id: { $in: ids } })).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  it('skips an event it has already applied', async () => {
    let applied = 0;
    const handle = mongoProcessedEventsHandler(db, 'counter', async () => {
      applied += 1;
    });
    const event = makeEvent(Thing, 'x', { step: 'once' });
    expect(await handle(event)).toBe(true);
    expect(await handle(event)).toBe(false);
    expect(applied).toBe(1);
  });
});
