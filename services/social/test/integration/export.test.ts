import { describe, expect, it } from 'vitest';
import { ExportAreaDocument, INTERNAL_EXPORT_PATH } from '@wayfarer/contracts';
import { as, type Harness, socialPerFile } from './harness';

let h: Harness;
socialPerFile((harness) => (h = harness));

describe('the friends area of the account export', () => {
  it("holds the user's friends by name with since when, and none of another user's", async () => {
    const ann = await h.register('Ann Export');
    const bea = await h.register('Bea Friend');
    const cid = await h.register('Cid Friend');
    const dan = await h.register('Dan Stranger');
    const before = Date.now();
    await h.befriend(ann, bea);
    await h.befriend(ann, cid);
    await h.befriend(cid, dan);
    const after = Date.now();

    const res = await h.app.inject({ method: 'GET', url: INTERNAL_EXPORT_PATH, headers: as(ann) });
    expect(res.statusCode).toBe(200);
    const doc = ExportAreaDocument.parse(res.json());
    expect(doc.area).toBe('friends');
    const items = doc.items as { id: string; name: string; since: string }[];
    expect(items.map(({ id, name }) => ({ id, name }))).toEqual([
      { id: bea, name: 'Bea Friend' },
      { id: cid, name: 'Cid Friend' },
    ]);
    for (const item of items) {
      const since = Date.parse(item.since);
      // the database's clock and this process's: a second's slack either side
      expect(since).toBeGreaterThanOrEqual(before - 1000);
      expect(since).toBeLessThanOrEqual(after + 1000);
    }
    expect(res.body).not.toContain(dan);

    // without the proof (not through the gateway, nor through trips): refused
    const raw = await h.rawApp.inject({
      method: 'GET',
      url: INTERNAL_EXPORT_PATH,
      headers: as(ann),
    });
    expect(raw.statusCode).toBe(401);
  });
});
