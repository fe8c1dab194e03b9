import { describe, expect, it } from 'vitest';
import { SocialLimits, SocialMessages } from '@wayfarer/contracts';
import { as, type Harness, socialPerFile } from './harness';

let h: Harness;
socialPerFile((harness) => (h = harness));

/** A name part no other test's user has, so results hold only this test's users. */
const tag = () => `q${crypto.randomUUID().slice(0, 8)}`;

describe('search-users', () => {
  it('finds by part of the name ignoring case and accents, leaving out the caller and friends', async () => {
    const t = tag();
    const me = await h.register(`Zoë ${t} Me`);
    const friend = await h.register(`Zoe ${t} Friend`);
    const asked = await h.register(`ZOE ${t} Asked`);
    const asker = await h.register(`Zoé ${t} Asker`);
    const stranger = await h.register(`zöe ${t} Stranger`);
    await h.befriend(me, friend);
    expect((await h.addFriend(me, asked)).statusCode).toBe(200);
    expect((await h.addFriend(asker, me)).statusCode).toBe(200);

    const users = await h.search(me, `ZOE ${t.toUpperCase()}`);
    expect(users).toEqual([
      {
        _id: asked,
        name: `ZOE ${t} Asked`,
        picture: `/api/avatars/${asked}/a.webp`,
        status: 'pending',
      },
      {
        _id: asker,
        name: `Zoé ${t} Asker`,
        picture: `/api/avatars/${asker}/a.webp`,
        status: 'incoming',
      },
      {
        _id: stranger,
        name: `zöe ${t} Stranger`,
        picture: `/api/avatars/${stranger}/a.webp`,
        status: 'none',
      },
    ]);
    // the accented query finds the plain names too
    expect((await h.search(me, `zöé ${t}`)).map((u) => u._id)).toEqual([asked, asker, stranger]);
    // once friends, the friend leaves the results
    expect((await h.accept(me, asker)).statusCode).toBe(200);
    expect((await h.search(me, t)).map((u) => u._id)).toEqual([asked, stranger]);
  });

  it('matches %, _, \\ and regex characters as themselves', async () => {
    const t = tag();
    const me = await h.register(`Searcher ${t}`);
    const percent = await h.register(`100% ${t}`);
    const underscore = await h.register(`a_b ${t}`);
    const backslash = await h.register(`back\\slash ${t}`);
    const regex = await h.register(`(.*)+ ${t}`);
    await h.register(`100x ${t}`);
    await h.register(`axb ${t}`);
    await h.register(`backslash ${t}`);

    expect((await h.search(me, `100% ${t}`)).map((u) => u._id)).toEqual([percent]);
    expect((await h.search(me, `a_b ${t}`)).map((u) => u._id)).toEqual([underscore]);
    expect((await h.search(me, `back\\slash ${t}`)).map((u) => u._id)).toEqual([backslash]);
    expect((await h.search(me, `(.*)+ ${t}`)).map((u) => u._id)).toEqual([regex]);
    expect(await h.search(me, `%${t}%_`)).toEqual([]);
  });

  it('answers at most SocialLimits.searchResultsMax users, by name', async () => {
    const t = tag();
    const me = await h.register(`Many ${t} caller`);
    const names = Array.from(
      { length: SocialLimits.searchResultsMax + 3 },
      (_, i) => `${t} ${String(i).padStart(2, '0')}`,
    );
    for (const name of names) await h.register(name);
    const users = await h.search(me, t);
    expect(users.map((u) => u.name)).toEqual(names.slice(0, SocialLimits.searchResultsMax));
  });

  it('ignores an empty or blank query (200, no users) and refuses one too long (400)', async () => {
    const me = await h.register(`Blank ${tag()}`);
    for (const url of [
      '/api/search-users',
      '/api/search-users?query=',
      '/api/search-users?query=%20%20',
    ]) {
      const res = await h.app.inject({ url, headers: as(me) });
      expect(res.statusCode, url).toBe(200);
      expect(res.json()).toEqual({ users: [] });
    }
    const long = 'a'.repeat(SocialLimits.searchQueryMax + 1);
    const res = await h.app.inject({ url: `/api/search-users?query=${long}`, headers: as(me) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SocialMessages.queryTooLong);
    const twice = await h.app.inject({ url: '/api/search-users?query=a&query=b', headers: as(me) });
    expect(twice.statusCode).toBe(400);
  });
});
