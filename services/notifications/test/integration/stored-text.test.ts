import { describe, expect, it } from 'vitest';
import { applied, type Harness, notificationsPerFile } from './harness';

// A text PostgreSQL cannot hold (U+0000, which trips refused only from a later version on: the
// topic's history has such trips) must not stop a consumer: retried forever, it held every
// later trip event back (found by bench/notifications/arrival.bench.ts on a new namespace).

let h: Harness;
notificationsPerFile((harness) => (h = harness));

describe('text with NUL in an event', () => {
  it('is stored without it, and the next event is applied', async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    await applied(h, await h.befriend(ann, bob, bob));
    const nul = await h.trip(ann, 'Summer\u0000 trip');
    await applied(h, nul);
    const tripId = (nul.payload as { tripId: string }).tripId;
    await applied(h, await h.updateTrip(ann, tripId, 2, 'Autumn\u0000'));
    await applied(h, await h.message(ann, bob, 'Hi\u0000 there'));
    const after = await h.trip(ann, 'Next');
    await applied(h, after);
    const subjects = (await h.all(bob))
      .filter((n) => n.kind !== 'friend_accepted')
      .map((n) => n.subject);
    expect(subjects).toEqual([
      { tripId: (after.payload as { tripId: string }).tripId, name: 'Next' },
      expect.objectContaining({ preview: 'Hi there' }),
      { tripId, name: 'Autumn' },
    ]);
  });
});
