import type { Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testInfra, uniqueSuffix } from '@wayfarer/test-kit';
import { connectMongo } from '../src/mongo';

/**
 * What the MongoDB services rely on from the server, checked against the one the tests run on
 * (mongo-java-server locally and in CI, MongoDB 7 with docker-compose): single-document
 * atomicity and the update operators the code uses. Nothing else (no transactions).
 */
describe('the MongoDB-wire server gives what the services rely on', () => {
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    ({ client, db } = await connectMongo(testInfra().mongoUrl, `t_server_${uniqueSuffix()}`));
  });
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  });

  it('applies every one of many concurrent updates of one document', async () => {
    const docs = db.collection<{ _id: string; n: number; seen: number[] }>('counters');
    await docs.insertOne({ _id: 'c', n: 0, seen: [] });
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        docs.updateOne({ _id: 'c' }, { $inc: { n: 1 }, $push: { seen: i } }),
      ),
    );
    const doc = await docs.findOne({ _id: 'c' });
    expect(doc?.n).toBe(100);
    expect(doc?.seen).toHaveLength(100);
  });

  it('lets exactly one of concurrent conditional updates match (a soft-delete wins once)', async () => {
    const docs = db.collection<{ _id: string; deletedAt: Date | null; outbox: string[] }>('trips');
    await docs.insertOne({ _id: 't', deletedAt: null, outbox: [] });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        docs.updateOne(
          { _id: 't', deletedAt: null },
          { $set: { deletedAt: new Date() }, $push: { outbox: `deleted-${i}` } },
        ),
      ),
    );
    expect(results.map((r) => r.modifiedCount).reduce((a, b) => a + b)).toBe(1);
    expect((await docs.findOne({ _id: 't' }))?.outbox).toHaveLength(1);
  });

  it('$pull with a condition removes exactly the matching array entries', async () => {
    const docs = db.collection<{ _id: string; outbox: { id: string; at: Date }[] }>('pull');
    const at = new Date();
    await docs.insertOne({
      _id: 'p',
      outbox: ['a', 'b', 'c', 'd'].map((id) => ({ id, at })),
    });
    const result = await docs.updateOne(
      { _id: 'p' },
      { $pull: { outbox: { id: { $in: ['a', 'c', 'missing'] } } } },
    );
    expect(result.modifiedCount).toBe(1);
    expect((await docs.findOne({ _id: 'p' }))?.outbox.map((e) => e.id)).toEqual(['b', 'd']);
  });

  it('findOneAndUpdate honours a projection and answers null when nothing matches', async () => {
    const docs = db.collection<{ _id: string; name: string; secret?: string; v?: number }>('fau');
    await docs.insertOne({ _id: 'f', name: 'kept', secret: 'hidden' });
    const before = await docs.findOneAndUpdate(
      { _id: 'f' },
      { $set: { v: 1 } },
      { projection: { secret: 0 }, returnDocument: 'before' },
    );
    expect(before).toEqual({ _id: 'f', name: 'kept' });
    const after = await docs.findOneAndUpdate(
      { _id: 'f' },
      { $inc: { v: 1 } },
      { projection: { v: 1 }, returnDocument: 'after' },
    );
    expect(after).toEqual({ _id: 'f', v: 2 });
    expect(await docs.findOneAndUpdate({ _id: 'none' }, { $set: { v: 1 } })).toBeNull();
  });

  it('reports a duplicate _id as error code 11000 (what idempotent inserts catch)', async () => {
    const docs = db.collection<{ _id: string }>('dup');
    await docs.insertOne({ _id: 'x' });
    await expect(docs.insertOne({ _id: 'x' })).rejects.toMatchObject({ code: 11000 });
  });
});
