import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  IdempotencyLimits,
  IdempotencyMessages,
} from '@wayfarer/contracts';
import { HttpError } from '../src/errors';
import {
  idempotencyKeyOf,
  jsonFingerprint,
  recordedAnswer,
  RequestFingerprint,
  type IdempotencyClaim,
} from '../src/idempotency';
import { idempotentTransaction, pruneOutboxHistory, outboxMigrations, type Pool } from '../src/pg';
import { statusOf, thingClaim as claim, thingsDatabase } from './idempotency-helpers';

const DAY = 24 * 60 * 60 * 1000;
const headers = (value: string | string[]) => ({ headers: { [IDEMPOTENCY_KEY_HEADER]: value } });

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
  const db = thingsDatabase('kit_idem', outboxMigrations);
  let pool: Pool;
  beforeAll(() => {
    pool = db.pool();
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
  const things = db.count;

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
