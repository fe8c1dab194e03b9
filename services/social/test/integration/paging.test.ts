import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FRIENDS_NEXT_CURSOR_HEADER,
  SocialLimits,
  SocialMessages,
  type Friend,
} from '@wayfarer/contracts';
import { uniqueSuffix } from '@wayfarer/test-kit';
import { as, startSocial, type Harness } from './harness';

let h: Harness;
let me: string;
let friendIds: string[];
const FRIENDS = 23;

beforeAll(async () => {
  h = await startSocial();
  // the rows social's consumers and accept would write
  const run = uniqueSuffix();
  me = `me-${run}`;
  friendIds = Array.from({ length: FRIENDS }, (_, i) => `f-${run}-${String(i).padStart(2, '0')}`);
  await h.pool.query(
    `INSERT INTO users (id, name, search_key, picture)
     SELECT id, 'Friend ' || id, 'friend ' || id, '/a.webp' FROM unnest($1::text[]) id`,
    [friendIds],
  );
  await h.pool.query(
    `INSERT INTO friendships (user_id, friend_id)
     SELECT $1, id FROM unnest($2::text[]) id
     UNION ALL SELECT id, $1 FROM unnest($2::text[]) id`,
    [me, friendIds],
  );
});

afterAll(async () => {
  await h?.close();
});

const get = (url: string, userId = me) => h.app.inject({ url, headers: as(userId) });

describe('GET /api/friends paging', () => {
  it('without parameters: the first page of friendsPageDefault friends and the next cursor', async () => {
    const res = await get('/api/friends');
    expect(res.statusCode).toBe(200);
    const page = res.json<Friend[]>();
    expect(Array.isArray(page)).toBe(true);
    expect(page).toHaveLength(SocialLimits.friendsPageDefault);
    expect(typeof res.headers[FRIENDS_NEXT_CURSOR_HEADER]).toBe('string');
  });

  it('following the cursors names every friend exactly once, the last page without a cursor', async () => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let url: string | null = '/api/friends?limit=5';
    while (url !== null) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      const page = res.json<Friend[]>();
      sizes.push(page.length);
      seen.push(...page.map((f) => f.id));
      const next = res.headers[FRIENDS_NEXT_CURSOR_HEADER];
      url = typeof next === 'string' ? `/api/friends?limit=5&cursor=${next}` : null;
    }
    expect(sizes).toEqual([5, 5, 5, 5, 3]);
    expect(seen).toEqual([...friendIds].sort());
    expect(new Set(seen).size).toBe(FRIENDS);
  });

  it('a page exactly at the end has no next cursor', async () => {
    const res = await get(`/api/friends?limit=${FRIENDS}`);
    expect(res.json<Friend[]>()).toHaveLength(FRIENDS);
    expect(res.headers[FRIENDS_NEXT_CURSOR_HEADER]).toBeUndefined();
  });

  it('a cursor only pages the caller’s own friends', async () => {
    const first = await get('/api/friends?limit=1');
    const cursor = first.headers[FRIENDS_NEXT_CURSOR_HEADER] as string;
    const stranger = await get(`/api/friends?cursor=${cursor}`, `stranger-${uniqueSuffix()}`);
    expect(stranger.statusCode).toBe(200);
    expect(stranger.json()).toEqual([]);
  });

  it('a tampered cursor or a bad limit: 400 with a clear message', async () => {
    const first = await get('/api/friends?limit=1');
    const cursor = first.headers[FRIENDS_NEXT_CURSOR_HEADER] as string;
    const forged = Buffer.from(JSON.stringify({ before: 'x' })).toString('base64url');
    for (const bad of [
      cursor.slice(0, -3) + '!!',
      cursor.slice(0, 5),
      forged,
      'not-a-cursor',
      '',
    ]) {
      const res = await get(`/api/friends?cursor=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toBe(SocialMessages.badFriendsCursor);
    }
    for (const bad of ['0', String(SocialLimits.friendsPageMax + 1), 'ten', '-1', '1.5']) {
      const res = await get(`/api/friends?limit=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().message).toContain(SocialMessages.badFriendsLimit);
    }
  });
});
