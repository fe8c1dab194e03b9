import { randomUUID } from 'node:crypto';
import type { Collection, Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  IdempotencyLimits,
  IdempotencyMessages,
} from '@wayfarer/contracts';
import { dropDatabase, freshDatabase, testInfra, uniqueSuffix } from '@wayfarer/test-kit';
import { HttpError } from '../src/errors';
import {
  idempotencyKeyOf,
  jsonFingerprint,
  recordedAnswer,
  RequestFingerprint,
  type IdempotencyClaim,
} from '../src/idempotency';
import {
  createPgPool,
  idempotencyMigrations,
  idempotentTransaction,
  migrate,
  pruneOutboxHistory,
  outboxMigrations,
  type Pool,
} from '../src/pg';
import {
  connectMongo,
  MongoIdempotency,
  type IdempotencyRecord,
  type WithIdempotency,
} from '../src/mongo';

const DAY = 24 * 60 * 60 * 1000;
const headers = (value: string | string[]) => ({ headers: { [IDEMPOTENCY_KEY_HEADER]: value } });

/** The 4xx an HttpError-throwing call ends with. */
async function statusOf(call: () => Promise<unknown>): Promise<number> {
  try {
    await call();
  } catch (err) {
    if (err instanceof HttpError) return err.statusCode;
    throw err;
  }
  return 0;
}

describe('the Idempotency-Key header', () => {
  it('is read when well formed and absent is no key', () => {
    expect(idempotencyKeyOf({ headers: {} })).toBeNull();
    const uuid = randomUUID();
    expect(idempotencyKeyOf(headers(uuid))).toBe(uuid);
    expect(idempotencyKeyOf(headers('x'.repeat(IdempotencyLimits.keyMaxLength)))).toHaveLength(
      IdempotencyLimits.keyMaxLength,
    );
  });

  it('is a 400 when too long, empty, with a space or control character, non-ASCII or repeated', () => {
    for (const bad of [
      'x'.repeat(IdempotencyLimits.keyMaxLength + 1),
      '',
      'a b',
      'a\tb',
      'a\u0000b',
      'a\u007fb',
      'clé',
      ['a', 'b'],
      'a, b', // what Node makes of the header sent twice
    ]) {
      let caught: unknown;
      try {
        idempotencyKeyOf(headers(bad));
      } catch (err) {
        caught = err;
      }
      expect(caught, JSON.stringify(bad)).toBeInstanceOf(HttpError);
      expect((caught as HttpError).statusCode).toBe(400);
      expect((caught as HttpError).message).toBe(IdempotencyMessages.badKey);
    }
  });
});

describe('request fingerprints', () => {
  const of = (build: (f: RequestFingerprint) => void, method = 'POST', path = '/api/x') => {
    const f = new RequestFingerprint(method, path);
    build(f);
    return f.digest();
  };

  it('are the same for the same request, chunked any way', () => {
    const a = of((f) => {
      f.field('name', 'Rome');
      f.file('photos[0]', 'a.png');
      f.fileBytes(Buffer.from('abcdef'));
    });
    const b = of((f) => {
      f.field('name', 'Rome');
      f.file('photos[0]', 'a.png');
      f.fileBytes(Buffer.from('abc'));
      f.fileBytes(Buffer.from('def'));
    });
    expect(a).toBe(b);
  });

  it('differ for another method, path, field, value, file name or bytes, and cannot spill', () => {
    const base = of((f) => f.field('a', 'bc'));
    expect(of((f) => f.field('a', 'bc'), 'PUT')).not.toBe(base);
    expect(of((f) => f.field('a', 'bc'), 'POST', '/api/y')).not.toBe(base);
    expect(of((f) => f.field('ab', 'c'))).not.toBe(base);
    expect(of((f) => f.field('a', 'bd'))).not.toBe(base);
    expect(of((f) => f.file('a', 'bc'))).not.toBe(base);
    const photo = (bytes: string, then?: (f: RequestFingerprint) => void) =>
      of((f) => {
        f.file('photos[0]', 'a.png');
        f.fileBytes(Buffer.from(bytes));
        then?.(f);
      });
    expect(photo('abc')).not.toBe(photo('abd'));
    expect(photo('abc')).not.toBe(photo('ab', (f) => f.field('c', '')));
    expect(jsonFingerprint({ method: 'POST', url: '/api/x', body: { a: 1 } })).not.toBe(
      jsonFingerprint({ method: 'POST', url: '/api/x', body: { a: 2 } }),
    );
    expect(jsonFingerprint({ method: 'POST', url: '/api/x', body: { a: 1 } })).toBe(
      jsonFingerprint({ method: 'POST', url: '/api/x', body: { a: 1 } }),
    );
  });
});

describe('idempotent creates in PostgreSQL (real PostgreSQL)', () => {
  let url: string;
  let pool: Pool;

  beforeAll(async () => {
    url = await freshDatabase('kit_idem');
    pool = createPgPool(url);
    await migrate(pool, [
      ...outboxMigrations,
      ...idempotencyMigrations,
      {
        id: '900_things',
        sql: 'CREATE TABLE things (id uuid PRIMARY KEY, owner_id text NOT NULL, name text NOT NULL)',
      },
    ]);
  });

  afterAll(async () => {
    await pool?.end();
    if (url) await dropDatabase(url);
  });

  const claim = (owner: string, key: string, body: unknown): IdempotencyClaim => ({
    owner,
    key,
    fingerprint: jsonFingerprint({ method: 'POST', url: '/api/things', body }),
  });
  /** Inserts a thing (after `delayMs` of PostgreSQL time, inside the transaction). */
  const make = (owner: string, name: string, delayMs = 0) =>
    idempotentTransaction(pool, claimFor.get(`${owner}/${name}`) ?? null, async (client) => {
      if (delayMs > 0) await client.query('SELECT pg_sleep($1)', [delayMs / 1000]);
      const id = randomUUID();
      await client.query('INSERT INTO things (id, owner_id, name) VALUES ($1, $2, $3)', [
        id,
        owner,
        name,
      ]);
      return { answer: recordedAnswer(201, { id, name }), value: id };
    });
  const claimFor = new Map<string, IdempotencyClaim>();
  const things = async (owner: string) =>
    (
      await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM things WHERE owner_id = $1', [
        owner,
      ])
    ).rows[0]!.n;

  it('answers a retry with the first answer and creates nothing; another body is a 422', async () => {
    const ann = randomUUID();
    claimFor.set(`${ann}/Rome`, claim(ann, 'k1', { name: 'Rome' }));
    const first = await make(ann, 'Rome');
    expect(first.replayed).toBe(false);
    const again = await make(ann, 'Rome');
    expect(again).toEqual({ replayed: true, answer: first.answer });
    expect(await things(ann)).toBe(1);

    claimFor.set(`${ann}/Oslo`, claim(ann, 'k1', { name: 'Oslo' }));
    expect(await statusOf(() => make(ann, 'Oslo'))).toBe(422);
    expect(await things(ann)).toBe(1);
  });

  it("keeps another user's same key apart", async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    claimFor.set(`${ann}/Lima`, claim(ann, 'shared', { name: 'Lima' }));
    claimFor.set(`${bob}/Lima`, claim(bob, 'shared', { name: 'Lima' }));
    const a = await make(ann, 'Lima');
    const b = await make(bob, 'Lima');
    expect([a.replayed, b.replayed]).toEqual([false, false]);
    expect(a.answer.body).not.toBe(b.answer.body);
    expect([await things(ann), await things(bob)]).toEqual([1, 1]);
  });

  it('lets concurrent same-key requests create once: the others wait and replay', async () => {
    const ann = randomUUID();
    claimFor.set(`${ann}/Kyiv`, claim(ann, 'k-concurrent', { name: 'Kyiv' }));
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => make(ann, 'Kyiv', 150)));
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => o.answer.body)).size).toBe(1);
    expect(await things(ann)).toBe(1);
  });

  it('records nothing for a create that fails: a retry runs again', async () => {
    const ann = randomUUID();
    const c = claim(ann, 'k-fail', {});
    const failing = idempotentTransaction(pool, c, async (client) => {
      await client.query("INSERT INTO things (id, owner_id, name) VALUES ($1, $2, 'x')", [
        randomUUID(),
        ann,
      ]);
      throw new HttpError(404, 'nope');
    });
    await expect(failing).rejects.toThrow('nope');
    expect(await things(ann)).toBe(0);
    claimFor.set(`${ann}/x`, c);
    expect((await make(ann, 'x')).replayed).toBe(false);
    expect(await things(ann)).toBe(1);
  });

  it('forgets a key after the retention (taken over before it is pruned), then prunes it', async () => {
    const ann = randomUUID();
    claimFor.set(`${ann}/Bern`, claim(ann, 'k-old', { name: 'Bern' }));
    await make(ann, 'Bern');
    const age = async (ms: number) =>
      pool.query(
        `UPDATE idempotency_keys SET created_at = now() - make_interval(secs => $2)
          WHERE owner_id = $1`,
        [ann, ms / 1000],
      );
    await age(IdempotencyLimits.retentionMs - 60_000);
    expect((await make(ann, 'Bern')).replayed).toBe(true);
    await age(IdempotencyLimits.retentionMs + 60_000);
    expect((await make(ann, 'Bern')).replayed).toBe(false); // the key is free again
    expect(await things(ann)).toBe(2);

    await age(IdempotencyLimits.retentionMs + 60_000);
    const keys = async () =>
      (
        await pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM idempotency_keys WHERE owner_id = $1',
          [ann],
        )
      ).rows[0]!.n;
    expect(await keys()).toBe(1);
    // the relay's prune takes keys past their retention, however short the outbox's is
    await pruneOutboxHistory(pool, 7 * DAY, 1000);
    expect(await keys()).toBe(0);
  });
});

interface ThingDoc extends WithIdempotency {
  _id: string;
  owner: string;
  name: string;
}

describe('idempotent creates in MongoDB (real MongoDB-wire server)', () => {
  let client: MongoClient;
  let db: Db;
  let things: Collection<ThingDoc>;
  let clock = Date.now();
  let idem: MongoIdempotency;

  beforeAll(async () => {
    ({ client, db } = await connectMongo(testInfra().mongoUrl, `kit_idem_${uniqueSuffix()}`));
    things = db.collection<ThingDoc>('things');
    idem = new MongoIdempotency(things, () => new Date(clock));
    await idem.init();
  });

  afterAll(async () => {
    await db?.dropDatabase();
    await client?.close();
  });

  const claim = (owner: string, key: string, body: unknown): IdempotencyClaim => ({
    owner,
    key,
    fingerprint: jsonFingerprint({ method: 'POST', url: '/api/things', body }),
  });
  const undone: string[] = [];
  /** Inserts a thing after `delayMs` (work before the write), undoing its work on failure. */
  const make = (c: IdempotencyClaim | null, owner: string, name: string, delayMs = 0) =>
    idem.run(c, async (stamp) => {
      const _id = randomUUID();
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      const answer = recordedAnswer(201, { _id, name });
      try {
        await things.insertOne({ _id, owner, name, ...stamp(answer) });
      } catch (err) {
        undone.push(_id);
        throw err;
      }
      return { answer, value: _id };
    });
  const count = (owner: string) => things.countDocuments({ owner });

  it('answers a retry with the first answer and creates nothing; another body is a 422', async () => {
    const ann = randomUUID();
    const first = await make(claim(ann, 'k1', 'Rome'), ann, 'Rome');
    expect(first.replayed).toBe(false);
    expect(await make(claim(ann, 'k1', 'Rome'), ann, 'Rome')).toEqual({
      replayed: true,
      answer: first.answer,
    });
    expect(await statusOf(() => make(claim(ann, 'k1', 'Oslo'), ann, 'Oslo'))).toBe(422);
    expect(await count(ann)).toBe(1);
    // without a key, creates are plain (and documents without one share the sparse index)
    await make(null, ann, 'Rome');
    await make(null, ann, 'Rome');
    expect(await count(ann)).toBe(3);
  });

  it("keeps another user's same key apart", async () => {
    const [ann, bob] = [randomUUID(), randomUUID()];
    await make(claim(ann, 'shared', 'Lima'), ann, 'Lima');
    expect((await make(claim(bob, 'shared', 'Lima'), bob, 'Lima')).replayed).toBe(false);
    expect([await count(ann), await count(bob)]).toEqual([1, 1]);
  });

  it('lets concurrent same-key requests create once: the unique index refuses the others, which undo their work and replay', async () => {
    const ann = randomUUID();
    undone.length = 0;
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => make(claim(ann, 'k-concurrent', 'Kyiv'), ann, 'Kyiv', 50)),
    );
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => o.answer.body)).size).toBe(1);
    expect(await count(ann)).toBe(1);
    expect(undone).toHaveLength(4);
  });

  it('lets an upsert of an existing document write once per key, even concurrently', async () => {
    interface Entry extends WithIdempotency {
      _id: string;
      text: string;
      writes: number;
    }
    const entries = db.collection<Entry>('entries');
    const entryKeys = new MongoIdempotency(entries);
    await entryKeys.init();
    const ann = randomUUID();
    /** Sets an entry's text (an upsert, retried once on an `_id` race as journal does). */
    const save = (c: IdempotencyClaim, id: string, text: string) =>
      entryKeys.run(c, async (stamp, notHoldingKey) => {
        const answer = recordedAnswer(200, { saved: text });
        const write = () =>
          entries.updateOne(
            { _id: id, ...notHoldingKey },
            { $set: { text, ...stamp(answer) }, $inc: { writes: 1 } },
            { upsert: true },
          );
        try {
          await write();
        } catch (err) {
          if ((err as { code?: number }).code !== 11000) throw err;
          await write();
        }
        return { answer, value: null };
      });
    const writes = async (id: string) => (await entries.findOne({ _id: id }))?.writes ?? 0;

    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => save(claim(ann, 'k1', 'a'), 'e1', 'a')),
    );
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    expect(await writes('e1')).toBe(1);
    expect((await save(claim(ann, 'k2', 'b'), 'e1', 'b')).replayed).toBe(false);
    expect((await save(claim(ann, 'k2', 'b'), 'e1', 'b')).replayed).toBe(true);
    expect(await writes('e1')).toBe(2);
    // the key of one entry's save sent for another entry: refused by the unique index, 422
    expect(await statusOf(() => save(claim(ann, 'k2', 'c'), 'e2', 'c'))).toBe(422);
    expect(await writes('e2')).toBe(0);
  });

  it('keeps a second kind of keyed write to the same documents in a field of its own', async () => {
    interface Album extends WithIdempotency {
      _id: string;
      photos: string[];
      added?: IdempotencyRecord;
    }
    const albums = db.collection<Album>('albums');
    const created = new MongoIdempotency(albums);
    const adds = new MongoIdempotency<Pick<Album, 'added'>>(albums, () => new Date(clock), {
      field: 'added',
    });
    await created.init();
    await adds.init();
    const ann = randomUUID();
    const answer = recordedAnswer(201, { ok: true });
    await created.run(claim(ann, 'create', 'a1'), async (stamp) => {
      await albums.insertOne({ _id: 'a1', photos: [], ...stamp(answer) });
      return { answer, value: null };
    });
    const add = (key: string, photo: string) =>
      adds.run(claim(ann, key, photo), async (stamp, notHoldingKey) => {
        const result = await albums.updateOne(
          { _id: 'a1', ...notHoldingKey },
          { $push: { photos: photo }, $set: stamp(answer) },
        );
        if (result.modifiedCount !== 1) throw Object.assign(new Error('dup'), { code: 11000 });
        return { answer, value: null };
      });
    expect((await add('p1', 'x')).replayed).toBe(false);
    expect((await add('p1', 'x')).replayed).toBe(true);
    expect((await add('p2', 'y')).replayed).toBe(false);
    const album = await albums.findOne({ _id: 'a1' });
    expect(album?.photos).toEqual(['x', 'y']);
    // the create's record is untouched by the adds, and still answers its retry
    expect(album?.idempotency?.scope).toBe(JSON.stringify([ann, 'create']));
    expect(album?.added?.scope).toBe(JSON.stringify([ann, 'p2']));
    expect(await created.find(claim(ann, 'create', 'a1'))).toEqual(answer);
    // the same key in the other field is another key
    expect((await add('create', 'z')).replayed).toBe(false);
    expect(await statusOf(() => add('create', 'w'))).toBe(422);
    // a document holds its latest record of each kind: p2's was replaced
    expect((await albums.findOne({ _id: 'a1' }))?.photos).toEqual(['x', 'y', 'z']);
  });

  it('forgets a key after the retention, and the pruner takes expired records off', async () => {
    const ann = randomUUID();
    await make(claim(ann, 'k-old', 'Bern'), ann, 'Bern');
    clock += IdempotencyLimits.retentionMs - 60_000;
    expect((await make(claim(ann, 'k-old', 'Bern'), ann, 'Bern')).replayed).toBe(true);
    clock += 120_000;
    // expired: taken off its document at once, so the same key creates again
    expect((await make(claim(ann, 'k-old', 'Bern'), ann, 'Bern')).replayed).toBe(false);
    expect(await count(ann)).toBe(2);

    clock += IdempotencyLimits.retentionMs + 60_000;
    expect(await things.countDocuments({ owner: ann, idempotency: { $exists: true } })).toBe(1);
    expect(await idem.prune()).toBeGreaterThanOrEqual(1);
    expect(await things.countDocuments({ owner: ann, idempotency: { $exists: true } })).toBe(0);
    expect(await count(ann)).toBe(2); // the documents stay
  });
});
