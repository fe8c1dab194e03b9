import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExportAreaDocument, INTERNAL_EXPORT_PATH } from '@wayfarer/contracts';
import { as, newUserId, startBucketList, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startBucketList();
});

afterAll(async () => {
  await h?.close();
});

describe('the bucketlist area of the account export', () => {
  it("holds the user's places with their itineraries, and none of another user's", async () => {
    const ann = newUserId();
    const bob = newUserId();
    const paris = await h.addPlace(ann, 'Paris', { latitude: 48.8566, longitude: 2.3522 });
    const lima = await h.addPlace(ann, 'Lima', { latitude: -12.0464, longitude: -77.0428 });
    await h.addPlace(bob, "Bob's Oslo", { latitude: 59.91, longitude: 10.75 });
    const saved = await h.saveItinerary(ann, { bucketListId: paris._id, itinerary: ['Louvre'] });
    expect(saved.statusCode).toBe(200);

    const res = await h.app.inject({ method: 'GET', url: INTERNAL_EXPORT_PATH, headers: as(ann) });
    expect(res.statusCode).toBe(200);
    const doc = ExportAreaDocument.parse(res.json());
    expect(doc).toEqual({
      area: 'bucketlist',
      items: [
        { ...paris, itinerary: ['Louvre'] },
        { ...lima, itinerary: [] },
      ],
    });
    expect(res.body).not.toContain('Oslo');

    // nobody signed in: nothing to export
    const anonymous = await h.app.inject({ method: 'GET', url: INTERNAL_EXPORT_PATH });
    expect(anonymous.statusCode).toBe(401);
  });
});
