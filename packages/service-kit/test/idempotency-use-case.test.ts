import { randomUUID } from 'node:crypto';
import type { Collection, Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '@wayfarer/contracts';
import { testInfra, uniqueSuffix } from '@wayfarer/test-kit';
import { HttpError } from '../src/errors';
import {
  recordedAnswer,
  RequestFingerprint,
  streamedClaim,
  type IdempotencyClaim,
} from '../src/idempotency';
import { idempotentUseCase, inTransaction, type Pool } from '../src/pg';
import {
  connectMongo,
  keyedFilter,
  keyedRecord,
  MongoIdempotency,
  type WithIdempotency,
} from '../src/mongo';
import { statusOf, thingClaim as claim, thingsDatabase } from './idempotency-helpers';

/*
 * The idempotency boundary around a use case: the route hands the claim to the wrapper, the
 * use case knows nothing of it, and the store's write adds the record (MongoDB: `keyedRecord`,
 * `keyedFilter`; PostgreSQL: `inTransaction` joins the key's transaction).
 */

describe('the claim of a streamed request', () => {
  const request = (key?: string) => ({
    method: 'POST',
    url: '/api/things',
    headers: key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: key },
  });

  it('is null without a key, with nothing to feed', () => {
    const keyed = streamedClaim(request(), 'ann');
    expect(keyed.fingerprint).toBeUndefined();
    expect(keyed.claim()).toBeNull();
    expect(keyed.key).toBeNull();
  });

  it('fingerprints what the route feeds it, and a bad key is a 400 at once', () => {
    const keyed = streamedClaim(request('k1'), 'ann');
    keyed.fingerprint!.field('name', 'Rome');
    const same = new RequestFingerprint('POST', '/api/things').field('name', 'Rome').digest();
    expect(keyed.claim()).toEqual({ owner: 'ann', key: 'k1', fingerprint: same });
    expect(keyed.claim()).toBe(keyed.claim());
    expect(keyed.key).toBe('k1');
    expect(() => streamedClaim(request('a b'), 'ann')).toThrow(HttpError);
  });
});

interface ThingDoc extends WithIdempotency {
  _id: string;
  owner: string;
  name: string;
  version: number;
}

describe('a keyed use case in MongoDB (real MongoDB-wire server)', () => {
  let client: MongoClient;
  let db: Db;
  let things: Collection<ThingDoc>;
  let keys: MongoIdempotency;

  beforeAll(async () => {
    ({ client, db } = await connectMongo(testInfra().mongoUrl, `kit_usecase_${uniqueSuffix()}`));
    things = db.collection<ThingDoc>('things');
    keys = new MongoIdempotency(things);
    await keys.init();
  });

  afterAll(async () => {
    await db?.dropDatabase();
    await client?.close();
  });

  /** A store: its writes add what the keyed use case running asks, nothing else. */
  const store = {
    insert: (doc: ThingDoc) => things.insertOne({ ...doc, ...keyedRecord(things, doc) }),
    rename: async (id: string, version: number, name: string) => {
      const result = await things.updateOne(
        { _id: id, version, ...keyedFilter(things) },
        { $set: { name, ...keyedRecord(things, { _id: id, name }) }, $inc: { version: 1 } },
      );
      return result.modifiedCount === 1;
    },
  };
  const answerOf = (thing: Pick<ThingDoc, '_id' | 'name'>) =>
    recordedAnswer(201, { _id: thing._id, name: thing.name });
  const undone: string[] = [];
  /** The use case: knows nothing of keys; undoes its work when its write fails. */
  const createThing = async (owner: string, name: string, delayMs = 0) => {
    const _id = randomUUID();
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    try {
      await store.insert({ _id, owner, name, version: 1 });
    } catch (err) {
      undone.push(_id);
      throw err;
    }
    return _id;
  };
  const make = (c: IdempotencyClaim | null, owner: string, name: string, delayMs = 0) =>
    keys.runUseCase(c, answerOf, () => createThing(owner, name, delayMs));
  const count = (owner: string) => things.countDocuments({ owner });

  it('answers a retry with the first answer byte for byte; another body is a 422', async () => {
    const ann = randomUUID();
    const first = await make(claim(ann, 'k1', 'Rome'), ann, 'Rome');
    expect(first.replayed).toBe(false);
    expect(first.replayed === false && first.answer.body).toBe(
      JSON.stringify({ _id: first.replayed === false ? first.value : '', name: 'Rome' }),
    );
    expect(await make(claim(ann, 'k1', 'Rome'), ann, 'Rome')).toEqual({
      replayed: true,
      answer: first.answer,
    });
    expect(await statusOf(() => make(claim(ann, 'k1', 'Oslo'), ann, 'Oslo'))).toBe(422);
    expect(await count(ann)).toBe(1);
    // without a key: plain creates, still answered
    const plain = await make(null, ann, 'Rome');
    expect(plain.answer.status).toBe(201);
    expect(await things.countDocuments({ _id: plain.replayed ? '' : plain.value })).toBe(1);
    expect(await count(ann)).toBe(2);
  });

  it('lets concurrent same-key use cases write once: the others undo their work and replay', async () => {
    const ann = randomUUID();
    undone.length = 0;
    const c = claim(ann, 'k-concurrent', 'Kyiv');
    const [a, b, d] = await Promise.all([0, 1, 2].map(() => make(c, ann, 'Kyiv', 50)));
    expect([a, b, d].map((o) => o!.replayed).sort()).toEqual([false, true, true]);
    expect(a!.answer).toEqual(b!.answer);
    expect(d!.answer).toEqual(a!.answer);
    expect([await count(ann), undone.length]).toEqual([1, 2]);
  });

  it('answers a same-key update that lost the race (its filter matched nothing) from the winner', async () => {
    const ann = randomUUID();
    const id = randomUUID();
    await things.insertOne({ _id: id, owner: ann, name: 'a', version: 1 });
    const renames = new MongoIdempotency(things, undefined, { field: 'renamed' });
    await renames.init();
    /** Renames over version 1: a loser finds another version and refuses (a 412 of its own). */
    const rename = (name: string) =>
      renames.runUseCase(claim(ann, 'r1', name), answerOf, async () => {
        await new Promise((r) => setTimeout(r, 20));
        if (!(await store.rename(id, 1, name))) throw new HttpError(412, 'changed');
        return null;
      });
    const outcomes = await Promise.all([rename('b'), rename('b'), rename('b')]);
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    expect((await things.findOne({ _id: id }))?.version).toBe(2);
    expect((await rename('b')).replayed).toBe(true);
    // another key over the old version: the use case's own refusal
    expect(
      await statusOf(() =>
        renames.runUseCase(claim(ann, 'r2', 'c'), answerOf, async () => {
          if (!(await store.rename(id, 1, 'c'))) throw new HttpError(412, 'changed');
          return null;
        }),
      ),
    ).toBe(412);
  });

  it('adds nothing outside a keyed use case or to another collection', async () => {
    expect(keyedRecord(things, { _id: 'x', name: 'y' })).toEqual({});
    expect(keyedFilter(things)).toEqual({});
    const others = db.collection('others');
    const ann = randomUUID();
    await keys.runUseCase(claim(ann, 'k-other', 'Lima'), answerOf, async () => {
      expect(keyedRecord(others, {})).toEqual({});
      expect(keyedFilter(others)).toEqual({});
      return createThing(ann, 'Lima');
    });
    expect(await others.countDocuments({})).toBe(0);
  });

  it('refuses a use case that made no keyed write (nothing could answer a retry)', async () => {
    const ann = randomUUID();
    await expect(
      keys.runUseCase(claim(ann, 'k-nothing', 'x'), answerOf, async () => null),
    ).rejects.toThrow(/wrote nothing/);
  });
});

describe('a keyed use case in PostgreSQL (real PostgreSQL)', () => {
  const db = thingsDatabase('kit_usecase');
  let pool: Pool;
  beforeAll(() => {
    pool = db.pool();
  });

  /** A store: its writes in `inTransaction`, as any write of it. */
  const insertThing = (owner: string, name: string) =>
    inTransaction(pool, async (client) => {
      const id = randomUUID();
      await client.query('INSERT INTO things (id, owner_id, name) VALUES ($1, $2, $3)', [
        id,
        owner,
        name,
      ]);
      return id;
    });
  const answerOf = (id: string) => recordedAnswer(201, { id });
  const things = db.count;

  it('answers a retry with the first answer; the store wrote in the key’s transaction', async () => {
    const ann = randomUUID();
    const make = (name: string) =>
      idempotentUseCase(pool, claim(ann, 'k1', name), answerOf, () => insertThing(ann, name));
    const first = await make('Rome');
    expect(first.replayed).toBe(false);
    expect(await make('Rome')).toEqual({ replayed: true, answer: first.answer });
    expect(await statusOf(() => make('Oslo'))).toBe(422);
    expect(await things(ann)).toBe(1);
  });

  it('rolls the store’s writes back with the key when the use case fails after them', async () => {
    const ann = randomUUID();
    const failing = idempotentUseCase(pool, claim(ann, 'k-fail', 'x'), answerOf, async () => {
      await insertThing(ann, 'x');
      await insertThing(ann, 'y');
      throw new HttpError(404, 'nope');
    });
    await expect(failing).rejects.toThrow('nope');
    expect(await things(ann)).toBe(0);
    const again = await idempotentUseCase(pool, claim(ann, 'k-fail', 'x'), answerOf, () =>
      insertThing(ann, 'x'),
    );
    expect(again.replayed).toBe(false);
    expect(await things(ann)).toBe(1);
  });

  it('lets concurrent same-key use cases write once; without a use case a store commits alone', async () => {
    const ann = randomUUID();
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        idempotentUseCase(pool, claim(ann, 'k-c', 'Kyiv'), answerOf, () =>
          insertThing(ann, 'Kyiv'),
        ),
      ),
    );
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => o.answer.body)).size).toBe(1);
    expect(await things(ann)).toBe(1);
    await insertThing(ann, 'alone');
    expect(await things(ann)).toBe(2);
  });
});
