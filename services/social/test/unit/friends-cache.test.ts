import { describe, expect, it } from 'vitest';
import {
  EVERYONE,
  FriendsCache,
  type FriendsPageKey,
  type FriendsPageRead,
} from '../../src/store/friends-cache';

const key = (userId: string, afterId: string | null = null, limit = 5): FriendsPageKey => ({
  userId,
  afterId,
  limit,
});
const page = (friendIds: string[], size = 100, last: string | null = null): FriendsPageRead => ({
  body: Buffer.alloc(size, 'x'),
  last,
  friendIds,
});

/** A cache that is listening (what the LISTEN connection's first success does). */
function listeningCache(maxBytes = 1024 * 1024): FriendsCache {
  const cache = new FriendsCache(maxBytes);
  cache.listening();
  return cache;
}

/** A read as FriendPagesStore makes it: token, query, store. */
function read(cache: FriendsCache, k: FriendsPageKey, p: FriendsPageRead): boolean {
  return cache.end(cache.begin(), k, p);
}

describe('FriendsCache', () => {
  it('answers a stored page by (user, after, limit), each key on its own', () => {
    const cache = listeningCache();
    expect(cache.get(key('ann'))).toBeUndefined();
    const first = page(['bob', 'cat'], 100, 'cat');
    expect(read(cache, key('ann'), first)).toBe(true);
    expect(cache.get(key('ann'))).toMatchObject({ body: first.body, last: 'cat' });
    expect(cache.get(key('ann', 'cat'))).toBeUndefined();
    expect(cache.get(key('ann', null, 10))).toBeUndefined();
    expect(cache.get(key('bob'))).toBeUndefined();
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 4, stored: 1, entries: 1 });
  });

  it('stays within its byte bound, dropping the least recently used first', () => {
    // each entry: its body, the ids, the key and a fixed overhead; three fit, four do not
    const cache = listeningCache(3 * 1500);
    for (const user of ['a', 'b', 'c']) read(cache, key(user), page([`${user}-friend`], 1000));
    expect(cache.stats().entries).toBe(3);
    cache.get(key('a')); // a is now the most recently used: b is the oldest
    read(cache, key('d'), page(['d-friend'], 1000));
    expect(cache.get(key('b'))).toBeUndefined();
    for (const user of ['a', 'c', 'd']) expect(cache.get(key(user)), user).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 3, evicted: 1 });
    expect(cache.stats().bytes).toBeLessThanOrEqual(3 * 1500);
    // a page larger than the whole bound is not stored (and evicts nothing)
    expect(read(cache, key('e'), page(['x'], 5000))).toBe(false);
    expect(cache.stats().entries).toBe(3);
    // an evicted page no longer answers to its friends' notifications (index cleaned)
    cache.notify('b-friend');
    expect(cache.stats().invalidated).toBe(0);
  });

  it("a notification drops the user's own pages and every page showing them as a friend", () => {
    const cache = listeningCache();
    read(cache, key('ann'), page(['bob', 'cat'], 100, 'cat'));
    read(cache, key('ann', 'cat'), page(['dan']));
    read(cache, key('eve'), page(['ann', 'bob']));
    read(cache, key('fay'), page(['dan']));

    // bob's trips or profile changed: ann's first page and eve's show bob
    cache.notify('bob');
    expect(cache.get(key('ann'))).toBeUndefined();
    expect(cache.get(key('eve'))).toBeUndefined();
    expect(cache.get(key('ann', 'cat'))).toBeDefined();
    expect(cache.get(key('fay'))).toBeDefined();

    // ann's friendships changed: every page of ann's goes (the others do not show ann)
    read(cache, key('eve'), page(['ann', 'bob']));
    cache.notify('ann');
    expect(cache.get(key('ann', 'cat'))).toBeUndefined();
    expect(cache.get(key('eve'))).toBeUndefined();
    expect(cache.get(key('fay'))).toBeDefined();
    // someone no page shows: nothing goes
    cache.notify('stranger');
    expect(cache.stats()).toMatchObject({ entries: 1, invalidated: 4 });
    // everyone (TRUNCATE)
    cache.notify(EVERYONE);
    expect(cache.stats().entries).toBe(0);
  });

  it('does not store a read that a notification naming its user or a friend raced', () => {
    const cache = listeningCache();
    // bob's trip committed after the query's snapshot, heard before its result is stored
    const raced = cache.begin();
    cache.notify('bob');
    expect(cache.end(raced, key('ann'), page(['bob', 'cat']))).toBe(false);
    expect(cache.get(key('ann'))).toBeUndefined();

    // the user named (a friendship of ann's changed)
    const ownRace = cache.begin();
    cache.notify('ann');
    expect(cache.end(ownRace, key('ann'), page(['bob']))).toBe(false);

    // a notification about someone the page does not show does not stop it
    const unrelated = cache.begin();
    cache.notify('zed');
    expect(cache.end(unrelated, key('ann'), page(['bob']))).toBe(true);

    // nor one heard before the token (the query's snapshot has that change)
    cache.notify('bob');
    const after = cache.begin();
    expect(cache.end(after, key('ann'), page(['bob']))).toBe(true);
    expect(cache.stats()).toMatchObject({ stored: 2, refused: 2 });
  });

  it('remembers a notification for every read in flight, whichever ends first', () => {
    const cache = listeningCache();
    const slow = cache.begin();
    const fast = cache.begin();
    cache.notify('bob');
    // the fast read (another user) ends first: the slow one must still see bob's notification
    expect(cache.end(fast, key('eve'), page(['cat']))).toBe(true);
    expect(cache.end(slow, key('ann'), page(['bob']))).toBe(false);
    // a failed query hands its token back too
    const failed = cache.begin();
    expect(cache.end(failed, key('ann'), null)).toBe(false);
    // with no read in flight, nothing is remembered: a later read stores
    expect(read(cache, key('ann'), page(['bob']))).toBe(true);
  });

  it('while the listener is lost: drops everything, stores nothing, not even reads begun before', () => {
    const cache = new FriendsCache(1024 * 1024);
    // not listening yet: nothing is stored
    expect(read(cache, key('ann'), page(['bob']))).toBe(false);
    cache.listening();
    expect(read(cache, key('ann'), page(['bob']))).toBe(true);

    const before = cache.begin();
    cache.reset();
    expect(cache.get(key('ann'))).toBeUndefined();
    expect(cache.end(before, key('ann'), page(['bob']))).toBe(false);
    const during = cache.begin();
    expect(read(cache, key('ann'), page(['bob']))).toBe(false);

    // listening again: reads begun while lost still store nothing (changes were missed), new ones do
    cache.listening();
    expect(cache.end(during, key('ann'), page(['bob']))).toBe(false);
    expect(read(cache, key('ann'), page(['bob']))).toBe(true);
    expect(cache.stats()).toMatchObject({ resets: 1, entries: 1 });
  });

  it('a read begun before a TRUNCATE (everyone) is not stored', () => {
    const cache = listeningCache();
    const token = cache.begin();
    cache.notify(EVERYONE);
    expect(cache.end(token, key('ann'), page(['bob']))).toBe(false);
  });
});
