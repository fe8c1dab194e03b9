import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localInfra } from '@wayfarer/test-kit';
import { startJournal, type Harness } from './harness';

/**
 * After a broker restart the projections must not stall for the old member's session timeout
 * (about 30 s) before rejoining: they converge within 5 s of the
 * broker answering again. This file stops and starts the shared Kafka for real (deploy/local);
 * integration files run one at a time (test-kit's vitest config), so no other file of this
 * workspace is consuming meanwhile. The projections are read through the stores the routes
 * answer from (`ownerOf`: a journal answers 404 until its destination is there; `areFriends`).
 */
const CONVERGE_MS = 5000;

let h: Harness;
let kafkaStopped = false;
beforeAll(async () => {
  h = await startJournal();
});
afterAll(async () => {
  if (kafkaStopped) localInfra('up', 'kafka');
  await h?.close();
});

describe('a Kafka restart', () => {
  it('the projections take new events within 5 s of the broker answering again', async () => {
    const owner = h.id('owner');
    const friend = h.id('friend');
    // both consumers have joined and committed their positions before the broker goes away
    const before = h.id('before');
    const early = h.id('early');
    await h.createTrip(owner, [before]);
    await h.befriend(owner, early);
    await expect
      .poll(
        async () => [
          await h.stores.destinations.ownerOf(before),
          await h.stores.friendships.areFriends(owner, early),
        ],
        { timeout: 20_000, interval: 20 },
      )
      .toEqual([owner, true]);

    const { trips, friendships } = h.projections.consumers;
    const crashesBefore = [trips.crashes, friendships.crashes];
    localInfra('down', 'kafka');
    kafkaStopped = true;
    // both consumers noticed and crashed (kafkajs restarts them, under a new member id, while
    // the broker's log still holds the old member: the case that stalled for 30 s)
    await expect
      .poll(() => [trips.crashes > crashesBefore[0]!, friendships.crashes > crashesBefore[1]!], {
        timeout: 60_000,
        interval: 50,
      })
      .toEqual([true, true]);
    localInfra('up', 'kafka'); // returns once the broker answers a Metadata request
    kafkaStopped = false;
    const answeredAt = Date.now();

    const after = h.id('after');
    await h.createTrip(owner, [after]);
    await h.befriend(owner, friend);
    const remaining = () => Math.max(1, CONVERGE_MS - (Date.now() - answeredAt));
    // the trips projection: the new destination's journal exists (its owner is known)
    await expect
      .poll(() => h.stores.destinations.ownerOf(after), {
        timeout: remaining(),
        interval: 50,
        message: "the new trip's destination within 5 s of Kafka's return",
      })
      .toBe(owner);
    // the friendships projection: the new friend may read it
    await expect
      .poll(() => h.stores.friendships.areFriends(owner, friend), {
        timeout: remaining(),
        interval: 50,
        message: "the new friendship within 5 s of Kafka's return",
      })
      .toBe(true);
  }, 180_000);
});
