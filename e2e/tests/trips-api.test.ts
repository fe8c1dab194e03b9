import { describe, expect, it } from 'vitest';
import { api, createTrip, signUp, withServiceDown } from '../support/api';

/**
 * The trips and journal rows of the spec's /api table through the real gateway, across
 * services: trips publishes its events to Kafka and journal follows them.
 */
/** The status of `path` for `account`, polled until it is the one expected (Kafka carries it). */
const statusOf = (path: string, account: Parameters<typeof api>[1]) =>
  expect.poll(async () => (await api(path, account)).status, { timeout: 30_000, interval: 200 });

describe('trips and journal across services', () => {
  const places = [
    ['Lisbon, Portugal', '38.72', '-9.14', '2026-04-01', '2026-04-04'],
    ['Porto, Portugal', '41.15', '-8.61', '2026-04-05', '2026-04-07'],
  ] as const;

  it('keeps a trip, its photos and journals to their owner, and deleting it removes them all', async () => {
    const owner = await signUp('Owner', 'trips-api');
    const stranger = await signUp('Stranger', 'trips-api');
    const trip = await createTrip(owner, 'Portugal by train', places, 'Tiles everywhere.');
    const [lisbon] = trip.destinations;
    if (!lisbon) throw new Error('no destination');
    const photo = lisbon.photos[0]!;
    expect(photo).toMatch(/^\/api\/photos\//);

    // the owner sees it all
    const mine = (await (await api('/api/mytrips', owner)).json()) as { _id: string }[];
    expect(mine.map((t) => t._id)).toContain(trip._id);
    const image = await api(photo, owner);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);

    // the journal learns the destination's owner from trips' event, then the owner writes
    await statusOf(`/api/journal/${lisbon._id}`, owner).toBe(200);
    const save = await api('/api/journal', owner, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        destinationId: lisbon._id,
        content: 'Pasteis de nata.',
        date: new Date().toISOString(),
      }),
    });
    expect(save.status).toBe(200);
    const journal = (await (await api(`/api/journal/${lisbon._id}`, owner)).json()) as {
      content: string;
    };
    expect(journal.content).toBe('Pasteis de nata.');

    // a stranger can read or change none of it, and nothing changes
    expect((await api(`/api/trips/${trip._id}`, stranger)).status).toBe(404);
    expect((await api(`/api/trips/${trip._id}`, stranger, { method: 'DELETE' })).status).toBe(404);
    expect((await api(photo, stranger)).status).toBe(404);
    expect((await api(`/api/journal/${lisbon._id}`, stranger)).status).toBe(404);
    const overwrite = await api('/api/journal', stranger, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ destinationId: lisbon._id, content: 'mine now' }),
    });
    expect(overwrite.status).toBe(404);
    expect((await api(`/api/trips/${trip._id}`, owner)).status).toBe(200);
    expect(
      ((await (await api(`/api/journal/${lisbon._id}`, owner)).json()) as { content: string })
        .content,
    ).toBe('Pasteis de nata.');
    // and without a session, nothing at all
    expect((await api('/api/mytrips')).status).toBe(401);

    // delete: the answer carries the trip, the photos go at once, the journal follows the event
    const deleted = await api(`/api/trips/${trip._id}`, owner, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(((await deleted.json()) as { deletedTrip: { _id: string } }).deletedTrip._id).toBe(
      trip._id,
    );
    expect((await api(`/api/trips/${trip._id}`, owner)).status).toBe(404);
    expect((await api(photo, owner)).status).toBe(404);
    await statusOf(`/api/journal/${lisbon._id}`, owner).toBe(404);
  });

  it('a journal service that was down catches up on the trips created meanwhile', async () => {
    const owner = await signUp('Patient', 'trips-api');
    const trip = await withServiceDown('journal', async () => {
      const created = await createTrip(owner, 'While journal slept', places);
      const journal = await api(`/api/journal/${created.destinations[0]!._id}`, owner);
      expect(journal.status).toBe(503);
      return created;
    });
    // back up: it reads the trip.created it missed from Kafka, so the owner can write
    const destinationId = trip.destinations[0]!._id;
    await statusOf(`/api/journal/${destinationId}`, owner).toBe(200);
  });

  it('refuses a non-image photo and creates no trip', async () => {
    const owner = await signUp('Careful', 'trips-api');
    const form = new FormData();
    form.append('name', 'Sneaky');
    form.append('startDate', '2026-04-01');
    form.append('endDate', '2026-04-02');
    form.append('destinations[0][name]', 'Lisbon, Portugal');
    form.append('destinations[0][startDate]', '2026-04-01');
    form.append('destinations[0][endDate]', '2026-04-02');
    form.append('destinations[0][latitude]', '38.72');
    form.append('destinations[0][longitude]', '-9.14');
    form.append(
      'photos[0]',
      new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>'], { type: 'image/png' }),
      'x.png',
    );
    const res = await api('/api/trips', owner, { method: 'POST', body: form });
    expect(res.status).toBe(400);
    expect(await (await api('/api/mytrips', owner)).json()).toEqual([]);
  });
});
