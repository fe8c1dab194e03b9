import { describe, expect, it } from 'vitest';
import type { Trip, TripSummary } from '@wayfarer/contracts';
import { storyPreview, Topics } from '@wayfarer/contracts';
import { waitForEvents } from '@wayfarer/test-kit';
import { SUMMARY_VERSION } from '../../src/store/trips';
import { as, createSimpleTrip, newUserId, postTrip, tripFields } from './harness';
import { useTripsHarness, type Envelope, h, small, today } from './trips-harness';

useTripsHarness();

describe('the list of trips stored before their summary was kept', () => {
  it('is answered the same: made at read time, then stored at start (TripsStore.init)', async () => {
    const owner = newUserId();
    const long = 'A long day by the fjord. '.repeat(10);
    const res = await postTrip(
      h.app,
      owner,
      tripFields({ name: 'Old trip' }, [
        { name: 'Bergen', latitude: '60.39', longitude: '5.32', story: long },
        { name: 'Flåm', latitude: '60.86', longitude: '7.11' },
      ]),
      [
        { field: 'photos[0]', data: small, filename: 'a.png', type: 'image/png' },
        { field: 'photos[1]', data: small, filename: 'c.png', type: 'image/png' },
      ],
    );
    expect(res.statusCode, res.body).toBe(201);
    const old = res.json<Trip>();
    const recent = await createSimpleTrip(h, owner, small, 'Recent trip');
    await h.variants.idle();
    const list = async () =>
      (await h.app.inject({ url: '/api/mytrips', headers: as(owner) })).json<TripSummary[]>();
    const before = await list();
    expect(before.map((t) => t._id)).toEqual([recent._id, old._id]);

    // as stored before summaries were kept (none) or by another version of them (outdated)
    await h.trips.collection.updateOne(
      { _id: old._id },
      { $unset: { summaryJson: '', summaryVersion: '' } },
    );
    await h.trips.collection.updateOne(
      { _id: recent._id },
      { $set: { summaryJson: Buffer.from('{"stale":true}'), summaryVersion: 0 } },
    );
    // the list kept by this instance still answers (nothing bumped the owner's list version)
    const { misses } = h.mytrips.stats();
    expect(await list()).toEqual(before);
    expect(h.mytrips.stats().misses).toBe(misses);
    // read again (as after a write): made at read time
    await h.trips.versions.bump(owner);
    expect(await list()).toEqual(before);
    expect(h.mytrips.stats().misses).toBe(misses + 1);
    expect(before[1]!.destinations.map((d) => [d.story, d.photos.length])).toEqual([
      [storyPreview(long), 1],
      ['', 1],
    ]);

    // the next start stores them again; the list reads them from there
    await h.trips.init();
    const stored = await h.trips.collection
      .find({ _id: { $in: [old._id, recent._id] } }, { promoteBuffers: true })
      .toArray();
    for (const doc of stored) {
      expect(doc.summaryVersion).toBe(SUMMARY_VERSION);
      expect(JSON.parse(doc.summaryJson.toString())).toEqual(before.find((t) => t._id === doc._id));
    }
    // the owner's list version was bumped by it: read again
    expect(await list()).toEqual(before);
    expect(h.mytrips.stats().misses).toBe(misses + 2);
  });
});

describe('lenient where the spec is', () => {
  it('no name, no dates, no destinations: a trip dated today', async () => {
    const res = await postTrip(h.app, newUserId(), { name: '', startDate: '', endDate: '' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: '',
      startDate: today(),
      endDate: today(),
      destinations: [],
    });
  });

  it('destination dates default to the trip range; an empty "no file chosen" part is no photo', async () => {
    const res = await postTrip(
      h.app,
      newUserId(),
      tripFields({ name: 'T', startDate: '2024-01-01', endDate: '2024-02-01' }, [
        { name: 'Rome', latitude: '41.9', longitude: '12.5' },
      ]),
      [{ field: 'photos[0]', data: new Uint8Array(0), filename: '' }],
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<Trip>().destinations[0]).toMatchObject({
      startDate: '2024-01-01',
      endDate: '2024-02-01',
      photos: [],
      story: '',
    });
  });

  it('concurrent deletes of one trip: exactly one wins, one trip.deleted', async () => {
    const owner = newUserId();
    const t = await createSimpleTrip(h, owner, small);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        h.app.inject({ method: 'DELETE', url: `/api/trips/${t._id}`, headers: as(owner) }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([
      200, 404, 404, 404, 404, 404, 404, 404,
    ]);
    await expect
      .poll(() => h.trips.collection.countDocuments({ _id: t._id }), {
        message: 'the relay to remove the deleted trip',
        timeout: 20_000,
      })
      .toBe(0);
    const events = await waitForEvents<Envelope>(Topics.tripsTrip, (e) => e.aggregateId === t._id, {
      count: 2,
    });
    expect(events.map((e) => e.type)).toEqual(['trip.created', 'trip.deleted']);
  });
});

describe('deletes racing the relay (single-document atomicity, no locks)', () => {
  it('deleting trips right after creating them never loses a deletion', async () => {
    const owner = newUserId();
    for (let round = 0; round < 3; round++) {
      const created = await Promise.all(
        Array.from({ length: 6 }, (_, i) => createSimpleTrip(h, owner, small, `Quick ${i}`)),
      );
      // the relay was kicked by each create and is publishing trip.created right now
      const results = await Promise.all(
        created.map((t) =>
          h.app.inject({ method: 'DELETE', url: `/api/trips/${t._id}`, headers: as(owner) }),
        ),
      );
      expect(results.map((r) => r.statusCode)).toEqual(created.map(() => 200));
      const ids = created.map((t) => t._id);
      await expect
        .poll(() => h.trips.collection.countDocuments({ _id: { $in: ids } }), {
          message: 'the relay to remove every deleted trip',
          timeout: 20_000,
        })
        .toBe(0);
      const events = await waitForEvents<Envelope>(
        Topics.tripsTrip,
        (e) => e.type === 'trip.deleted' && ids.includes(e.aggregateId),
        { count: ids.length },
      );
      expect(new Set(events.map((e) => e.aggregateId)).size).toBe(ids.length);
    }
    const list = await h.app.inject({ url: '/api/mytrips', headers: as(owner) });
    expect(list.json()).toEqual([]);
  });
});

describe('readiness', () => {
  it('/readyz checks MongoDB and MinIO', async () => {
    const res = await h.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      service: 'trips',
      checks: { mongo: 'ok', minio: 'ok' },
    });
  });
});
