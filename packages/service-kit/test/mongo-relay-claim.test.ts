import { randomUUID } from 'node:crypto';
import { MongoClient, type CommandStartedEvent, type Db, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent, makeEvent } from '@wayfarer/contracts';
import { testInfra, uniqueSuffix } from '@wayfarer/test-kit';
import { createKafka } from '../src/kafka';
import { createLogger } from '../src/logger';
import {
  mongoProcessedEventsHandler,
  OUTBOX_PENDING_INDEX,
  outboxEntry,
  startMongoOutboxRelay,
  withOutboxEvents,
  withPendingFlag,
  type WithOutbox,
} from '../src/mongo';
import { dropTopics, readTopicToEnd, scratchTopic, tally } from './topic-log';

interface ThingDoc extends WithOutbox {
  _id: string;
  name: string;
}

const DAY = 24 * 60 * 60 * 1000;

describe('MongoDB relay: indexed pending scan, claims, pruning (real MongoDB-wire server + Kafka)', () => {
  let client: MongoClient;
  let db: Db;
  const commands: CommandStartedEvent[] = [];
  const topics: string[] = [];
  const logger = createLogger('kit-claim-test', 'silent');
  const kafka = createKafka({ clientId: 'kit-claim', brokers: testInfra().kafkaBrokers, logger });

  async function eventOn(name: string) {
    const topic = await scratchTopic(name);
    topics.push(topic);
    return defineEvent({
      topic,
      type: 'test.claim',
      version: 1,
      payload: z.object({ n: z.number() }),
    });
  }

  function thing(Ev: Awaited<ReturnType<typeof eventOn>>, n: number): ThingDoc {
    const _id = randomUUID();
    return withPendingFlag({
      _id,
      name: `t${n}`,
      deletedAt: null,
      outbox: [outboxEntry(Ev.topic, makeEvent(Ev, _id, { n }))],
    });
  }

  beforeAll(async () => {
    client = new MongoClient(testInfra().mongoUrl, { monitorCommands: true });
    client.on('commandStarted', (e) => commands.push(e));
    await client.connect();
    db = client.db(`t_claim_${uniqueSuffix()}`);
  });
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
    await dropTopics(topics);
  });

  it('two relays over one collection publish each pending event exactly once', async () => {
    const Ev = await eventOn('mongo-two-relays');
    const things = db.collection<ThingDoc>('shared');
    const docs = Array.from({ length: 80 }, (_, n) => thing(Ev, n));
    await things.insertMany(docs);
    const relays = [1, 2].map(() =>
      startMongoOutboxRelay({
        collections: [things],
        kafka,
        logger,
        topics: [Ev.topic],
        pollIntervalMs: 1,
        batchSize: 5,
      }),
    );
    try {
      await expect
        .poll(() => things.countDocuments({ outboxPending: true }), { timeout: 30_000 })
        .toBe(0);
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
    const counts = tally(
      (await readTopicToEnd<{ aggregateId: string }>(Ev.topic)).map((e) => e.aggregateId),
    );
    expect(counts.size).toBe(docs.length);
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    // drained and released: no entries, no flag, no claim left behind
    expect(
      await things.countDocuments({
        $or: [{ 'outbox.0': { $exists: true } }, { outboxClaim: { $exists: true } }],
      }),
    ).toBe(0);
  });

  it('skips documents another live instance holds, and takes over an expired claim', async () => {
    const Ev = await eventOn('mongo-lease');
    const things = db.collection<ThingDoc>('leased');
    const [held, expired, free] = [thing(Ev, 1), thing(Ev, 2), thing(Ev, 3)];
    const future = new Date(Date.now() + 60_000);
    const past = new Date(Date.now() - 1_000);
    await things.insertMany([
      { ...held, outboxClaim: { by: 'other-instance', until: future } },
      { ...expired, outboxClaim: { by: 'crashed-instance', until: past } },
      free,
    ]);
    const relay = startMongoOutboxRelay({
      collections: [things],
      kafka,
      logger,
      topics: [Ev.topic],
      pollIntervalMs: 60_000,
    });
    try {
      await relay.flush();
      const left = await things.find({}, { projection: { outbox: 1 } }).toArray();
      const pending = Object.fromEntries(left.map((d) => [d._id, d.outbox?.length ?? 0]));
      expect(pending).toEqual({ [held._id]: 1, [expired._id]: 0, [free._id]: 0 });

      // the other instance dies: its lease runs out and the event still goes out (at least once)
      await things.updateOne({ _id: held._id }, { $set: { 'outboxClaim.until': past } });
      await relay.flush();
      expect((await things.findOne({ _id: held._id }))?.outbox).toEqual([]);
    } finally {
      await relay.stop();
    }
    const sent = (await readTopicToEnd<{ aggregateId: string }>(Ev.topic)).map(
      (e) => e.aggregateId,
    );
    expect(sent.sort()).toEqual([held._id, expired._id, free._id].sort());
  });

  it('finds pending documents through the outboxPending index, flagging old documents at start', async () => {
    const Ev = await eventOn('mongo-index');
    const things = db.collection<ThingDoc>('indexed');
    // written before the flag existed: entries but no outboxPending
    const { outboxPending: _flag, ...legacy } = thing(Ev, 1);
    await things.insertOne(legacy);
    const updated = thing(Ev, 2);
    await things.insertOne({ _id: updated._id, name: 'first', deletedAt: null, outbox: [] });
    expect(await things.countDocuments({ outboxPending: true })).toBe(0);
    await things.updateOne(
      { _id: updated._id },
      withOutboxEvents<ThingDoc>({ $set: { name: 'renamed' } }, updated.outbox!),
    );
    expect((await things.findOne({ _id: updated._id }))?.outboxPending).toBe(true);

    commands.length = 0;
    const relay = startMongoOutboxRelay({
      collections: [things],
      kafka,
      logger,
      topics: [Ev.topic],
      pollIntervalMs: 60_000,
    });
    try {
      await relay.flush();
      expect(await things.countDocuments({ 'outbox.0': { $exists: true } })).toBe(0);
      expect(await things.countDocuments({ outboxPending: { $exists: true } })).toBe(0);
    } finally {
      await relay.stop();
    }
    const sent = (await readTopicToEnd<{ aggregateId: string }>(Ev.topic)).map(
      (e) => e.aggregateId,
    );
    expect(sent.sort()).toEqual([legacy._id, updated._id].sort());

    const indexes = await things.listIndexes().toArray();
    expect(indexes.find((i) => i.name === OUTBOX_PENDING_INDEX)).toMatchObject({
      key: { outboxPending: 1 },
      sparse: true,
    });
    // every scan the relay sent filters on the indexed flag
    const scans = commands
      .filter((c) => c.commandName === 'find' && c.command.find === 'indexed')
      .map((c) => c.command.filter as Document)
      .filter((f) => !('_id' in f));
    expect(scans.length).toBeGreaterThan(0);
    for (const filter of scans) expect(filter).toMatchObject({ outboxPending: true });

    // on a server that explains (MongoDB), the plan uses the index; mongo-java-server has no
    // `explain` and uses only unique indexes for lookups
    const explained = await things
      .find(scans[0]!)
      .explain()
      .catch((err: Error) => ({ unsupported: err.message }));
    if ('unsupported' in explained) {
      expect(explained.unsupported).toMatch(/explain/);
    } else {
      expect(JSON.stringify(explained.queryPlanner)).toContain(OUTBOX_PENDING_INDEX);
    }
  });

  it('prunes consumer markers older than the retention window, from the relay', async () => {
    const Ev = await eventOn('mongo-markers');
    const applied: string[] = [];
    const handle = mongoProcessedEventsHandler(db, 'claim-test', async (e) => {
      applied.push(e.id);
    });
    const recent = makeEvent(Ev, 'a', { n: 1 });
    const old = makeEvent(Ev, 'b', { n: 2 });
    expect(await handle(recent)).toBe(true);
    expect(await handle(old)).toBe(true);
    const markers = db.collection<{ _id: string; processedAt: Date }>('processed_events');
    await markers.updateOne(
      { _id: `claim-test:${old.id}` },
      { $set: { processedAt: new Date(Date.now() - 8 * DAY) } },
    );

    // the relay finds the markers in its collections' database by itself
    const relay = startMongoOutboxRelay({
      collections: [db.collection<ThingDoc>('markers-owner')],
      kafka,
      logger,
      topics: [Ev.topic],
      pollIntervalMs: 60_000,
      pruneIntervalMs: 60 * 60 * 1000,
    });
    try {
      await relay.prune();
      const left = (await markers.find({ consumer: 'claim-test' }).toArray()).map((m) => m._id);
      expect(left).toEqual([`claim-test:${recent.id}`]);
    } finally {
      await relay.stop();
    }
    // the recent one still guards against redelivery
    expect(await handle(recent)).toBe(false);
    expect(applied).toEqual([recent.id, old.id]);
  });
});
