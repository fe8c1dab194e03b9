import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExportAreaDocument, IdentityHeaders, INTERNAL_EXPORT_PATH } from '@wayfarer/contracts';
import { readable, startJournal, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startJournal();
});

afterAll(async () => {
  await h?.close();
});

describe('the journal area of the account export', () => {
  it("holds the user's entries with their destination ids, and none of another user's", async () => {
    const [ann, bob] = [h.id('ann'), h.id('bob')];
    const [rome, oslo, bergen] = [h.id('rome'), h.id('oslo'), h.id('bergen')];
    await h.createTrip(ann, [rome]);
    await h.createTrip(bob, [oslo, bergen]);
    await readable(h, ann, rome);
    await readable(h, bob, oslo);
    await readable(h, bob, bergen);
    const date = '2026-05-02T10:11:12.000Z';
    expect((await h.post(ann, { destinationId: rome, content: 'Gelato.', date })).statusCode).toBe(
      200,
    );
    expect((await h.post(bob, { destinationId: oslo, content: 'Fjords.' })).statusCode).toBe(200);

    const res = await h.app.inject({
      method: 'GET',
      url: INTERNAL_EXPORT_PATH,
      headers: { [IdentityHeaders.userId]: ann },
    });
    expect(res.statusCode).toBe(200);
    const doc = ExportAreaDocument.parse(res.json());
    expect(doc).toEqual({
      area: 'journal',
      items: [{ destinationId: rome, content: 'Gelato.', date, updatedAt: expect.any(String) }],
    });
    expect(res.body).not.toContain('Fjords');
  });
});
