import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEvent,
  Topics,
  TripCreated,
  TripUpdated,
  type EventEnvelope,
  type TripVisibility,
} from '@wayfarer/contracts';
import { applyTripEvent } from '../../src/usecases/apply-trip-event';
import { hidden, readable, startJournal, destinationSummaries, type Harness } from './harness';

/**
 * A private trip's journals are its owner's alone. A friend reading or writing one
 * gets exactly a stranger's 404; the owner is unchanged; made `friends` again it is readable
 * again. The trip's visibility comes from `trip.created` / `trip.updated`, ordered by version.
 */

let h: Harness;
let owner: string;
let friend: string;
let stranger: string;

beforeAll(async () => {
  h = await startJournal();
  owner = h.id('vowner');
  friend = h.id('vfriend');
  stranger = h.id('vstranger');
  await h.befriend(owner, friend);
});

afterAll(async () => {
  await h?.close();
});

const created = (tripId: string, ids: string[], visibility?: TripVisibility) =>
  makeEvent(TripCreated, tripId, {
    tripId,
    ownerId: owner,
    name: 'A trip',
    startDate: '2026-05-01',
    endDate: '2026-05-09',
    destinations: destinationSummaries(ids),
    ...(visibility ? { visibility } : {}),
  }) as EventEnvelope;

const updated = (
  tripId: string,
  version: number,
  ids: string[],
  visibility?: TripVisibility,
  added: string[] = [],
) =>
  makeEvent(TripUpdated, tripId, {
    tripId,
    ownerId: owner,
    version,
    name: 'A trip',
    startDate: '2026-05-01',
    endDate: '2026-05-09',
    destinations: destinationSummaries(ids),
    addedDestinationIds: added,
    movedDestinationIds: [],
    removedDestinationIds: [],
    ...(visibility ? { visibility } : {}),
  }) as EventEnvelope;

const notFound = { error: 'not_found', message: 'Journal not found.' };

/** A friend and a stranger get the same 404, on read and on write. */
async function hiddenFromOthers(destinationId: string) {
  const res = await hidden(h, friend, destinationId);
  expect(res.json()).toEqual(notFound);
  expect((await h.get(stranger, destinationId)).json()).toEqual(notFound);
  const write = await h.post(friend, { destinationId, content: 'hijacked' });
  expect(write.statusCode).toBe(404);
  expect(write.json()).toEqual(notFound);
}

describe("a private trip's journals", () => {
  it('created private: the owner reads and writes, a friend gets a stranger’s 404', async () => {
    const tripId = h.id('vtrip1');
    const dest = h.id('vdest1');
    await h.publishEnvelope(Topics.tripsTrip, created(tripId, [dest], 'private'));
    await readable(h, owner, dest);
    expect((await h.post(owner, { destinationId: dest, content: 'Mine.' })).statusCode).toBe(200);
    expect((await h.get(owner, dest)).json()).toMatchObject({ content: 'Mine.' });
    await hiddenFromOthers(dest);
  });

  it('friends -> private -> friends: hidden from a friend, then readable again', async () => {
    const tripId = h.id('vtrip2');
    const [dest, later] = [h.id('vdest2'), h.id('vdest2b')];
    await h.publishEnvelope(Topics.tripsTrip, created(tripId, [dest]));
    await readable(h, owner, dest);
    expect((await h.post(owner, { destinationId: dest, content: 'Shared.' })).statusCode).toBe(200);
    expect((await readable(h, friend, dest)).json()).toMatchObject({ content: 'Shared.' });

    await h.publishEnvelope(Topics.tripsTrip, updated(tripId, 2, [dest], 'private'));
    await hiddenFromOthers(dest);
    expect((await h.get(owner, dest)).json()).toMatchObject({ content: 'Shared.' });

    // a destination added while private is private too
    await h.publishEnvelope(
      Topics.tripsTrip,
      updated(tripId, 3, [dest, later], 'private', [later]),
    );
    await readable(h, owner, later);
    await hiddenFromOthers(later);

    // back to friends (an update without visibility, as before trips had a visibility, means friends)
    await h.publishEnvelope(Topics.tripsTrip, updated(tripId, 4, [dest, later]));
    expect((await readable(h, friend, dest)).json()).toMatchObject({ content: 'Shared.' });
    await readable(h, friend, later);
    // a friend may read it again, not write it
    expect((await h.post(friend, { destinationId: dest, content: 'x' })).statusCode).toBe(403);
    expect((await h.get(stranger, dest)).statusCode).toBe(404);
  });

  it('on their own: an older update arriving late cannot undo a newer visibility', async () => {
    const tripId = h.id('vtrip3');
    const dest = h.id('vdest3');
    const v2 = updated(tripId, 2, [dest], 'private');
    const v3 = updated(tripId, 3, [dest], 'friends');
    await applyTripEvent(h.stores, created(tripId, [dest]));
    await applyTripEvent(h.stores, v3);
    await applyTripEvent(h.stores, v2); // late
    await applyTripEvent(h.stores, created(tripId, [dest], 'private')); // a replay, changed
    expect(await h.stores.destinations.accessOf(dest)).toEqual({
      ownerId: owner,
      visibility: 'friends',
    });
    await applyTripEvent(h.stores, updated(tripId, 4, [dest], 'private'));
    await applyTripEvent(h.stores, updated(tripId, 4, [dest], 'private')); // replay
    await applyTripEvent(h.stores, v3); // late
    expect(await h.stores.destinations.accessOf(dest)).toEqual({
      ownerId: owner,
      visibility: 'private',
    });
  });
});
