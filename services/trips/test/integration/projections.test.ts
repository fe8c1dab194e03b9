import { Partitioners, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  TRIP_PHOTOS_FIELD,
  Topics,
  type EventEnvelope,
  type Trip,
  type TripPatch,
  type TripSummary,
} from '@wayfarer/contracts';
import { readTopicToEnd, testKafka } from '@wayfarer/test-kit';
import {
  startBucketList,
  visited,
  type Harness as BucketList,
} from '@wayfarer/bucketlist/test-harness';
import {
  hidden,
  readable,
  startJournal,
  type Harness as Journal,
} from '@wayfarer/journal/test-harness';
import { startSocial, type Harness as Social } from '@wayfarer/social/test-harness';
import { png } from '../fixtures';
import { as, multipart, postTrip, startTrips, tripFields, type Harness } from './harness';

/*
 * A trip changed after it was saved, end to end through the real stores and Kafka:
 * trips and the three services projecting its events (journal, social, bucketlist), each booted
 * by its own composition root (`createService`, through its test harness). Each change is one
 * `trip.updated` from trips' outbox; every projection follows it, and a replay of the events
 * changes nothing.
 */

let trips: Harness;
let journal: Journal;
let social: Social;
let bucketlist: BucketList;
let producer: Producer;
let image: Buffer;

beforeAll(async () => {
  [trips, journal, social, bucketlist] = await Promise.all([
    startTrips(),
    startJournal(),
    startSocial(),
    startBucketList(),
  ]);
  producer = testKafka().producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  image = await png(64, 48);
});

afterAll(async () => {
  await producer?.disconnect();
  await Promise.all([trips?.close(), journal?.close(), social?.close(), bucketlist?.close()]);
});

const waitOptions = { timeout: 20_000, interval: 25 };

const OSLO = { latitude: '59.91', longitude: '10.75' };
const BERGEN = { latitude: '60.39', longitude: '5.32' };
/** Svolvær, Lofoten; the bucket place (Henningsvær) is about 20 km from it. */
const SVOLVAER = { latitude: 68.2343, longitude: 14.5636 };
const HENNINGSVAER = { latitude: 68.1539, longitude: 14.2028 };

const patch = (owner: string, id: string, body: TripPatch, etag: string) =>
  trips.app.inject({
    method: 'PATCH',
    url: `/api/trips/${id}`,
    headers: { ...as(owner), 'content-type': 'application/json', 'if-match': etag },
    payload: JSON.stringify(body),
  });

/** What the friend's `/api/friends` shows of the owner's trips. */
async function friendsView(friend: string) {
  const [owner] = await social.friends(friend);
  return owner?.trips ?? [];
}

/** The trip's events on the topic once trips' outbox has sent them (each once). */
async function eventsOf(tripId: string): Promise<EventEnvelope[]> {
  await expect
    .poll(() => trips.trips.collection.countDocuments({ _id: tripId, outboxPending: true }), {
      timeout: 20_000,
    })
    .toBe(0);
  const seen = new Set<string>();
  return (await readTopicToEnd(Topics.tripsTrip))
    .map((m) => m.json as EventEnvelope | null)
    .filter(
      (e): e is EventEnvelope => e?.aggregateId === tripId && !seen.has(e.id) && !!seen.add(e.id),
    );
}

describe('a trip changed after it was saved: every projection follows trip.updated', () => {
  it('journal, a friend’s map, the bucket list and the owner’s list; replays change nothing', async () => {
    const owner = await social.register('Owner');
    const friend = await social.register('Friend');
    await social.befriend(owner, friend);
    const henningsvaer = await bucketlist.addPlace(owner, 'Henningsvær', HENNINGSVAER);

    // the trip as saved: Oslo (a photo), Bergen
    const created = await postTrip(
      trips.app,
      owner,
      tripFields({ name: 'Norway', startDate: '2026-06-01', endDate: '2026-06-20' }, [
        { name: 'Oslo', ...OSLO },
        { name: 'Bergen', ...BERGEN, story: 'Rain' },
      ]),
      [{ field: 'photos[0]', data: image, filename: 'o.png', type: 'image/png' }],
    );
    expect(created.statusCode, created.body).toBe(201);
    const trip = created.json<Trip>();
    const [oslo, bergen] = trip.destinations as [Trip['destinations'][0], Trip['destinations'][0]];
    await readable(journal, owner, bergen._id);
    expect(
      (await journal.post(owner, { destinationId: bergen._id, content: 'Rainy days' })).statusCode,
    ).toBe(200);
    expect(
      (await journal.post(owner, { destinationId: oslo._id, content: 'Opera' })).statusCode,
    ).toBe(200);
    await vi.waitFor(
      async () => expect((await friendsView(friend)).map((t) => t.name)).toEqual(['Norway']),
      waitOptions,
    );

    // the change: renamed, Bergen removed, Svolvær added before Oslo
    const changed = await patch(
      owner,
      trip._id,
      {
        name: 'Norway, north too',
        destinations: [{ name: 'Svolvær', ...SVOLVAER, story: 'Islands' }, { _id: oslo._id }],
      },
      created.headers.etag as string,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const svolvaer = changed.json<Trip>().destinations[0]!;

    // the owner's list shows it at once
    const list = await trips.app.inject({ url: '/api/mytrips', headers: as(owner) });
    expect(list.json<TripSummary[]>()[0]).toMatchObject({
      name: 'Norway, north too',
      destinations: [
        { _id: svolvaer._id, name: 'Svolvær' },
        { _id: oslo._id, name: 'Oslo' },
      ],
    });

    // journal: the removed destination's journal is gone, the added one's can be written
    await hidden(journal, owner, bergen._id);
    await expect
      .poll(
        () => journal.stores.entries.collection.countDocuments({ _id: bergen._id }),
        waitOptions,
      )
      .toBe(0);
    await readable(journal, friend, svolvaer._id);
    expect(
      (await journal.post(owner, { destinationId: svolvaer._id, content: 'Fish' })).statusCode,
    ).toBe(200);
    expect((await journal.get(friend, oslo._id)).json()).toMatchObject({ content: 'Opera' });

    // social: the friend's map shows the new name and destinations
    await vi.waitFor(async () => {
      const [shown] = await friendsView(friend);
      expect(shown).toMatchObject({
        _id: trip._id,
        name: 'Norway, north too',
        destinations: [
          { _id: svolvaer._id, name: 'Svolvær', ...SVOLVAER, photos: [] },
          { _id: oslo._id, name: 'Oslo', photos: oslo.photos.map((u) => u.split('?')[0]) },
        ],
      });
    }, waitOptions);

    // bucketlist: the place near the added destination is visited, by this trip
    expect(await visited(bucketlist, owner, henningsvaer._id)).toMatchObject({
      visitedByTrip: { tripId: trip._id, name: 'Norway, north too' },
    });

    // a photo added to Svolvær: the friend's map shows it as the destination's thumbnail
    const form = await multipart(
      [],
      [{ field: TRIP_PHOTOS_FIELD, data: image, filename: 's.png', type: 'image/png' }],
    );
    const added = await trips.app.inject({
      method: 'POST',
      url: `/api/trips/${trip._id}/destinations/${svolvaer._id}/photos`,
      payload: form.payload,
      headers: { ...form.headers, ...as(owner), 'if-match': changed.headers.etag as string },
    });
    expect(added.statusCode, added.body).toBe(201);
    const photoUrl = added.json<Trip>().destinations[0]!.photos[0]!.split('?')[0]!;
    await vi.waitFor(async () => {
      expect((await friendsView(friend))[0]!.destinations[0]!.photos).toEqual([photoUrl]);
    }, waitOptions);

    // replays: every event of the trip sent again (a redelivery), then a last change as a
    // marker on the same partition; nothing the replays could change did
    const events = await eventsOf(trip._id);
    expect(events.map((e) => e.type)).toEqual(['trip.created', 'trip.updated', 'trip.updated']);
    const nearSvolvaer = await bucketlist.addPlace(owner, 'Kabelvåg', {
      latitude: 68.21,
      longitude: 14.48,
    });
    await producer.send({
      topic: Topics.tripsTrip,
      acks: -1,
      messages: events.map((e) => ({ key: e.aggregateId, value: JSON.stringify(e) })),
    });
    const marker = await patch(owner, trip._id, { name: 'Marker' }, added.headers.etag as string);
    expect(marker.statusCode).toBe(200);
    const markerId = (await eventsOf(trip._id)).at(-1)!.id;
    await vi.waitFor(async () => {
      expect((await friendsView(friend))[0]?.name).toBe('Marker');
      const ticked = await bucketlist.pool.query(
        'SELECT 1 FROM processed_events WHERE event_id = $1',
        [markerId],
      );
      expect(ticked.rowCount).toBe(1);
      expect(
        await journal.db.collection('processed_events').countDocuments({ eventId: markerId }),
      ).toBe(1);
    }, waitOptions);
    // still: Bergen's journal gone, Svolvær's kept, the friend sees the latest photos, the
    // place added after the change not ticked by its replay
    expect((await journal.get(owner, bergen._id)).statusCode).toBe(404);
    expect((await journal.get(owner, svolvaer._id)).json()).toMatchObject({ content: 'Fish' });
    expect((await friendsView(friend))[0]!.destinations[0]!.photos).toEqual([photoUrl]);
    expect((await bucketlist.list(owner)).find((i) => i._id === nearSvolvaer._id)?.isVisited).toBe(
      false,
    );
  });
});
