import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BucketListMessages, type BucketListItem } from '@wayfarer/contracts';
import {
  as,
  newUserId,
  outboxDrained,
  publishedEvents,
  startBucketList,
  type Harness,
} from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startBucketList();
});

afterAll(async () => {
  await h?.close();
});

const PARIS = { latitude: 48.8566, longitude: 2.3522 };
const LIMA = { latitude: -12.0464, longitude: -77.0428 };

describe('the bucket list', () => {
  it('adds, lists, visits and keeps itineraries, publishing one event per change', async () => {
    const ann = newUserId();
    const res = await h.add(ann, { place: '  Paris, France ', ...PARIS, isVisited: false });
    expect(res.statusCode).toBe(201);
    const paris = res.json<{ data: BucketListItem }>().data;
    expect(paris).toEqual({
      _id: expect.any(String),
      place: 'Paris, France',
      ...PARIS,
      isVisited: false,
    });
    // coordinates as text (form values) are read as decimals; isVisited may be left out
    const lima = await h.addPlace(ann, 'Lima, Peru', LIMA);
    const limaText = await h.add(ann, {
      place: 'Lima again',
      latitude: '-12.0464',
      longitude: '-77.0428',
    });
    expect(limaText.statusCode).toBe(201);
    const limaAgain = limaText.json<{ data: BucketListItem }>().data;
    expect(limaAgain).toMatchObject(LIMA);

    expect(await h.list(ann)).toEqual([paris, lima, limaAgain]);

    // the itinerary: empty at first, then replaced whole, trimmed
    expect((await h.getItinerary(ann, paris._id)).json()).toEqual({ itinerary: [] });
    const saved = await h.saveItinerary(ann, {
      bucketListId: paris._id,
      itinerary: [' Louvre ', 'Eiffel Tower'],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ itinerary: ['Louvre', 'Eiffel Tower'] });
    // the same list again changes nothing (no event); a new one replaces it
    expect(
      (
        await h.saveItinerary(ann, {
          bucketListId: paris._id,
          itinerary: ['Louvre', 'Eiffel Tower'],
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await h.saveItinerary(ann, { bucketListId: paris._id, itinerary: ['Orsay'] })).statusCode,
    ).toBe(200);
    expect((await h.getItinerary(ann, paris._id)).json()).toEqual({ itinerary: ['Orsay'] });
    expect((await h.saveItinerary(ann, { bucketListId: lima._id, itinerary: [] })).statusCode).toBe(
      200,
    );

    // the checkbox: visited with its time, kept in the list
    const before = Date.now();
    const visit = await h.visit(ann, lima._id);
    expect(visit.statusCode).toBe(200);
    const body = visit.json<{ message: string; data: BucketListItem }>();
    expect(body.message).toBe(BucketListMessages.visited);
    expect(body.data).toMatchObject({ _id: lima._id, isVisited: true });
    expect(body.data.visitedByTrip).toBeUndefined();
    expect(Date.parse(body.data.visitedAt!)).toBeGreaterThanOrEqual(before - 1000);
    // again: the same item, no second event
    const again = await h.visit(ann, lima._id);
    expect(again.statusCode).toBe(200);
    expect(again.json<{ data: BucketListItem }>().data.visitedAt).toBe(body.data.visitedAt);

    const listed = await h.list(ann);
    expect(listed.map((i) => [i._id, i.isVisited])).toEqual([
      [paris._id, false],
      [lima._id, true],
      [limaAgain._id, false],
    ]);
    // the visited item keeps its itinerary
    expect((await h.getItinerary(ann, lima._id)).json()).toEqual({ itinerary: [] });

    await outboxDrained(h);
    const events = await publishedEvents([ann]);
    const summary = events.map((e) => `${e.type} ${e.aggregateId}`).sort();
    expect(summary).toEqual(
      [
        `bucketlist.item.added ${paris._id}`,
        `bucketlist.item.added ${lima._id}`,
        `bucketlist.item.added ${limaAgain._id}`,
        `bucketlist.itinerary.saved ${paris._id}`,
        `bucketlist.itinerary.saved ${paris._id}`,
        `bucketlist.item.visited ${lima._id}`,
      ].sort(),
    );
    const itineraries = events
      .filter((e) => e.type === 'bucketlist.itinerary.saved')
      .map((e) => (e.payload as { itinerary: string[] }).itinerary);
    expect(itineraries).toEqual(expect.arrayContaining([['Louvre', 'Eiffel Tower'], ['Orsay']]));
    const visitedEvent = events.find((e) => e.type === 'bucketlist.item.visited');
    expect(visitedEvent?.payload).toEqual({
      itemId: lima._id,
      ownerId: ann,
      visitedAt: body.data.visitedAt,
    });
  });

  it("answers 404 on another user's items and changes nothing", async () => {
    const [owner, other] = [newUserId(), newUserId()];
    const item = await h.addPlace(owner, 'Kyoto, Japan', {
      latitude: 35.0116,
      longitude: 135.7681,
    });
    await h.saveItinerary(owner, { bucketListId: item._id, itinerary: ['Fushimi Inari'] });
    const before = await h.counts();

    for (const res of [
      await h.getItinerary(other, item._id),
      await h.visit(other, item._id),
      await h.saveItinerary(other, { bucketListId: item._id, itinerary: ['hijacked'] }),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ message: BucketListMessages.notFound });
    }
    expect(await h.list(other)).toEqual([]);
    expect(await h.list(owner)).toEqual([item]);
    expect((await h.getItinerary(owner, item._id)).json()).toEqual({
      itinerary: ['Fushimi Inari'],
    });
    expect(await h.counts()).toEqual(before);
  });

  it('answers 404 for ids that name no item', async () => {
    const user = newUserId();
    for (const id of [crypto.randomUUID(), 'not-an-id', 'x'.repeat(150)]) {
      for (const res of [
        await h.getItinerary(user, id),
        await h.visit(user, id),
        await h.saveItinerary(user, { bucketListId: id.slice(0, 100), itinerary: [] }),
      ]) {
        expect(res.statusCode, `${id}: ${res.body}`).toBe(404);
        expect(res.json()).toMatchObject({ message: BucketListMessages.notFound });
      }
    }
  });

  it('answers only what the gateway signed', async () => {
    const res = await h.rawApp.inject({ url: '/api/bucketlist', headers: as(newUserId()) });
    expect(res.statusCode).toBe(401);
    // signed but with no user: 401 too
    const anonymous = await h.app.inject({ url: '/api/bucketlist' });
    expect(anonymous.statusCode).toBe(401);
  });
});
