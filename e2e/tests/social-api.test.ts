import { describe, expect, it } from 'vitest';
import { api, createTrip, signUp, type Account } from '../support/api';

/**
 * Friendship decides who reads a traveller's photos and journal, through the
 * gateway against the real stack: social publishes `friendship.created` / `friendship.removed`,
 * trips (photos) and journal (reads) apply them. After unfriending, the former friend's photo
 * and journal answer 404 once the event is applied.
 */

/** `expect.poll` with room for a real stack under load (vitest's default is 1 s). */
const eventually = <T>(fn: () => Promise<T> | T, timeout = 15_000) =>
  expect.poll(fn, { timeout, interval: 100 });

const status = async (path: string, account: Account, init?: RequestInit) =>
  (await api(path, account, init)).status;

describe('social: access to a friend’s photos and journal follows the friendship', () => {
  it('B’s photo and journal are A’s to read while friends, 404 once B is unfriended', async () => {
    const tag = Math.random().toString(36).slice(2, 6);
    const ada = await signUp(`Ada Reader ${tag}`, 'social-api-a');
    const bea = await signUp(`Bea Writer ${tag}`, 'social-api-b');

    const trip = await createTrip(bea, 'Coast', [
      ['Lisbon, Portugal', '38.72225', '-9.13934', '2025-06-01', '2025-06-04'],
    ]);
    const lisbon = trip.destinations[0]!;
    const photo = lisbon.photos[0]!;
    expect(photo).toMatch(/^\/api\/photos\//);
    // journal learns the destination from trips' event: 404 until then
    await eventually(() =>
      status('/api/journal', bea, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ destinationId: lisbon._id, content: 'Tiles and trams.' }),
      }),
    ).toBe(200);

    // strangers: neither is A's to read
    expect(await status(photo, ada)).toBe(404);
    expect(await status(`/api/journal/${lisbon._id}`, ada)).toBe(404);

    // befriend through the gateway (social knows B once auth's event is applied)
    await eventually(() => status(`/api/add-friend/${bea.userId}`, ada, { method: 'POST' })).toBe(
      200,
    );
    expect(await status(`/api/acceptFriend/${ada.userId}`, bea, { method: 'POST' })).toBe(200);

    // trips and journal apply friendship.created: B's photo and journal become A's to read
    await eventually(() => status(photo, ada)).toBe(200);
    await eventually(() => status(`/api/journal/${lisbon._id}`, ada)).toBe(200);
    // and social answers every photo of B's destination to A
    await eventually(() =>
      status(`/api/friends/${bea.userId}/destinations/${lisbon._id}`, ada),
    ).toBe(200);

    // A unfriends B
    expect(await status(`/api/friends/${bea.userId}`, ada, { method: 'DELETE' })).toBe(200);
    // social's own read refuses at once; trips and journal once they apply friendship.removed
    expect(await status(`/api/friends/${bea.userId}/destinations/${lisbon._id}`, ada)).toBe(404);
    await eventually(() => status(photo, ada)).toBe(404);
    await eventually(() => status(`/api/journal/${lisbon._id}`, ada)).toBe(404);
    // B still reads both
    expect(await status(photo, bea)).toBe(200);
    expect(await status(`/api/journal/${lisbon._id}`, bea)).toBe(200);
  });
});
