import { afterEach, describe, expect, it, vi } from 'vitest';
import { FRIENDS_NEXT_CURSOR_HEADER } from '@wayfarer/contracts';
import { fetchFriends, type Friend } from './api';

const friend = (id: string): Friend => ({ id, name: `Friend ${id}`, picture: '', trips: [] });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchFriends', () => {
  it('reads every page, following x-next-cursor, handing each page over as it comes', async () => {
    const pages: Record<string, { friends: Friend[]; next?: string }> = {
      '/api/friends': { friends: [friend('a'), friend('b')], next: 'c1' },
      '/api/friends?cursor=c1': { friends: [friend('c'), friend('d')], next: 'c/2' },
      '/api/friends?cursor=c%2F2': { friends: [friend('e')] },
    };
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      const page = pages[url];
      if (!page) return new Response('{}', { status: 404 });
      return new Response(JSON.stringify(page.friends), {
        status: 200,
        headers: {
          'content-type': 'application/json',
          ...(page.next ? { [FRIENDS_NEXT_CURSOR_HEADER]: page.next } : {}),
        },
      });
    });
    const seen: string[][] = [];
    const all = await fetchFriends(undefined, (page) => seen.push(page.map((f) => f.id)));
    expect(asked).toEqual(Object.keys(pages));
    expect(seen).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(all.map((f) => f.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('a page that fails fails the whole read', async () => {
    let calls = 0;
    vi.stubGlobal('fetch', async () => {
      calls++;
      return calls === 1
        ? new Response(JSON.stringify([friend('a')]), {
            status: 200,
            headers: { 'content-type': 'application/json', [FRIENDS_NEXT_CURSOR_HEADER]: 'x' },
          })
        : new Response(JSON.stringify({ message: 'Invalid cursor' }), {
            status: 400,
            headers: { 'content-type': 'application/json' },
          });
    });
    await expect(fetchFriends()).rejects.toThrow();
    expect(calls).toBe(2);
  });
});
