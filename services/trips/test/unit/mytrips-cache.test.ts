import { describe, expect, it } from 'vitest';
import { MyTripsCache } from '../../src/store/mytrips-cache';

const body = (text: string) => Buffer.from(text);
/** What an entry of `owner` with a body of `n` bytes counts (body, key, bookkeeping). */
const entryBytes = (owner: string, n: number) => n + owner.length + 128;

function cache(maxBytes = 1 << 20, ttlMs = 60_000) {
  const clock = { t: 1_000 };
  return { cache: new MyTripsCache({ maxBytes, ttlMs, now: () => clock.t }), clock };
}

describe('MyTripsCache', () => {
  it('answers the body kept under the same version; another version is a miss', () => {
    const { cache: c } = cache();
    expect(c.get('a', 0)).toBeUndefined();
    expect(c.set('a', 3, body('[1]'))).toBe(true);
    expect(c.get('a', 3)?.toString()).toBe('[1]');
    // the version moved on: a miss, and the old body is dropped
    expect(c.get('a', 4)).toBeUndefined();
    expect(c.stats()).toMatchObject({ entries: 0, bytes: 0 });
    expect(c.get('a', 3)).toBeUndefined();
  });

  it('keeps one body per owner; owners never see each other’s', () => {
    const { cache: c } = cache();
    c.set('a', 1, body('[a]'));
    c.set('b', 1, body('[b]'));
    expect(c.get('a', 1)?.toString()).toBe('[a]');
    expect(c.get('b', 1)?.toString()).toBe('[b]');
    expect(c.get('c', 1)).toBeUndefined();
    c.set('a', 2, body('[a2]'));
    expect(c.stats()).toMatchObject({ entries: 2 });
    expect(c.get('a', 2)?.toString()).toBe('[a2]');
  });

  it('a slow list of an older version never replaces a newer one', () => {
    const { cache: c } = cache();
    c.set('a', 5, body('[new]'));
    expect(c.set('a', 4, body('[old]'))).toBe(false);
    expect(c.get('a', 5)?.toString()).toBe('[new]');
    // a reader that read the older version misses, and leaves the newer body kept
    expect(c.get('a', 4)).toBeUndefined();
    expect(c.get('a', 5)?.toString()).toBe('[new]');
  });

  it('a body is served for ttlMs at most (injected clock)', () => {
    const { cache: c, clock } = cache(1 << 20, 60_000);
    c.set('a', 1, body('[1]'));
    clock.t += 59_999;
    expect(c.get('a', 1)?.toString()).toBe('[1]');
    clock.t += 1;
    expect(c.get('a', 1)).toBeUndefined();
    expect(c.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('stays within its bytes, dropping the least recently used first', () => {
    const size = 1000;
    const max = 3 * entryBytes('a', size);
    const { cache: c } = cache(max);
    for (const owner of ['a', 'b', 'c']) c.set(owner, 1, Buffer.alloc(size));
    expect(c.stats()).toMatchObject({ entries: 3, bytes: max, evicted: 0 });
    // a was used last: b is the least recently used now
    expect(c.get('a', 1)).toBeDefined();
    c.set('d', 1, Buffer.alloc(size));
    expect(c.stats()).toMatchObject({ entries: 3, bytes: max, evicted: 1 });
    expect(c.get('b', 1)).toBeUndefined();
    expect(c.get('a', 1)).toBeDefined();
    expect(c.get('c', 1)).toBeDefined();
    expect(c.get('d', 1)).toBeDefined();
    // one body bigger than the whole bound is not kept, and drops nothing
    expect(c.set('e', 1, Buffer.alloc(max))).toBe(false);
    expect(c.stats()).toMatchObject({ entries: 3, bytes: max });
    // replacing an owner's body counts its new size only
    c.set('a', 2, Buffer.alloc(10));
    expect(c.stats().bytes).toBe(2 * entryBytes('a', size) + entryBytes('a', 10));
  });

  it('0 bytes: disabled, keeps nothing', () => {
    const { cache: c } = cache(0);
    expect(c.enabled).toBe(false);
    expect(c.set('a', 1, body('[]'))).toBe(false);
    expect(c.get('a', 1)).toBeUndefined();
  });

  it('read: a hit answers without loading; a miss loads once, shared by concurrent reads', async () => {
    const { cache: c } = cache();
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async () => {
      loads++;
      await gate;
      return body(`[${loads}]`);
    };
    const first = c.read('a', 1, load);
    const second = c.read('a', 1, load);
    release();
    expect((await first).toString()).toBe('[1]');
    expect((await second).toString()).toBe('[1]');
    expect((await c.read('a', 1, load)).toString()).toBe('[1]');
    expect(loads).toBe(1);
    expect(c.stats()).toMatchObject({ hits: 1, misses: 1, shared: 1 });
    // a new version loads again
    expect((await c.read('a', 2, load)).toString()).toBe('[2]');
    expect(c.stats()).toMatchObject({ hits: 1, misses: 2 });
  });

  it('read: a failed load is not kept, and the next read loads again', async () => {
    const { cache: c } = cache();
    await expect(
      c.read('a', 1, () => Promise.reject(new Error('MongoDB is down'))),
    ).rejects.toThrow('MongoDB is down');
    expect((await c.read('a', 1, async () => body('[ok]'))).toString()).toBe('[ok]');
    expect(c.stats()).toMatchObject({ hits: 0, misses: 2, entries: 1 });
  });
});
