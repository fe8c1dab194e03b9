/**
 * A trip through its share link: `GET /api/shared/{token}` p95 against the owner's
 * `GET /api/trips/{id}` p95 of the same trip, budget 1.5x.
 *
 *   node --import tsx bench/trips/shared.bench.ts
 *
 * trips runs in a process of its own (`process.ts`); this process is the client, over HTTP with
 * keep-alive, each request signed as the gateway signs it (the owner's identity for the owner's
 * read, none for the link's). CONNECTIONS trips of 10 destinations (stories of 300-1,500
 * characters, 2 photos each), stored as the service's insert stores them, each with a journal
 * text per destination as the `journal.saved` consumer keeps them (in the trip: `stories`) and
 * shared by a link that includes the stories (the heavier answer: stories and journals). What a
 * link read does: hash the token, find the live trip holding the link by that hash (one read,
 * its link and journal texts with it), check the link, shape what a visitor may see with photo
 * URLs under the link. Each connection takes the reads in turn (noise hits both alike). Beside the budget, for information: as
 * many other trips, the same, shared by links without stories (neither stories nor journal
 * texts: a smaller answer than the owner's), against the same owner's reads: what a link read
 * costs apart from the size of its answer.
 */
import { loadavg } from 'node:os';
import { MongoClient } from 'mongodb';
import { type ShareLink, SharePaths } from '@wayfarer/contracts';
import { testInfra } from '@wayfarer/test-kit';
import { percentile } from '../lib/stats';
import { recordBudget } from '../lib/results';
import { benchTrips, insertTrips, startTripsProcess } from './process';

const DESTINATIONS = 10;
const CONNECTIONS = Number(process.env.BENCH_SHARED_CONNECTIONS ?? 4);
const ROUNDS = 6;
const REQUESTS_PER_ROUND = 200;
const BUDGET = 1.5;
const owner = `bench-sharer-${Date.now()}`;
const ms = (v: number) => `${v.toFixed(2)} ms`;

const trips = await startTripsProcess('shared');
const client = await MongoClient.connect(testInfra().mongoUrl);
try {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const story = (n: number) =>
    Array.from({ length: n }, () => (random() * 1e6).toString(36).slice(0, 6)).join(' ');
  const docs = benchTrips({
    count: 2 * CONNECTIONS,
    owner,
    destinations: DESTINATIONS,
    name: (t) => `Shared trip ${t}`,
    story,
  });
  await insertTrips(client, trips.mongoDb, docs, (trip) => ({
    stories: Object.fromEntries(
      trip.destinations.map((d) => [
        d._id,
        { content: story(50 + (d.story.length % 5) * 50), savedAt: new Date() },
      ]),
    ),
  }));
  // the first CONNECTIONS trips shared with their stories (the budget's), the others without
  const links = new Map<string, string>();
  for (const [t, trip] of docs.entries()) {
    const answer = await trips.call(
      'POST',
      `/api/trips/${trip._id}/share`,
      owner,
      { 'content-type': 'application/json' },
      JSON.stringify({ includeStories: t < CONNECTIONS }),
    );
    links.set(trip._id, (JSON.parse(answer.text) as ShareLink).token);
  }

  type Kind = 'shared' | 'owner' | 'plain';
  const kinds: Kind[] = ['shared', 'owner', 'plain'];
  const measured: Record<Kind, number[]> = { shared: [], owner: [], plain: [] };
  /**
   * `count` requests over CONNECTIONS connections, each taking the three kinds in turn (each
   * connection starting at another), so whatever else the machine does at a moment hits the
   * three alike: the link's read of trip c with stories, the owner's read of the same trip,
   * the link's read of trip CONNECTIONS + c without stories.
   */
  const runMixed = async (count: number, record: boolean): Promise<void> => {
    let left = count;
    await Promise.all(
      docs.slice(0, CONNECTIONS).map(async (trip, c) => {
        const plainTrip = docs[CONNECTIONS + c]!;
        let turn = c;
        while (left-- > 0) {
          const kind = kinds[turn++ % kinds.length]!;
          const answer =
            kind === 'owner'
              ? await trips.call('GET', `/api/trips/${trip._id}`, owner)
              : await trips.call(
                  'GET',
                  SharePaths.api(links.get((kind === 'plain' ? plainTrip : trip)._id)!),
                  null,
                );
          if (record) measured[kind].push(answer.ms);
        }
      }),
    );
  };

  const first = await trips.call('GET', SharePaths.api(links.get(docs[0]!._id)!), null);
  const plain = await trips.call('GET', SharePaths.api(links.get(docs[CONNECTIONS]!._id)!), null);
  const own = await trips.call('GET', `/api/trips/${docs[0]!._id}`, owner);
  console.log(
    `share link benchmark (Node ${process.version}), trips on port ${trips.port}: ` +
      `${DESTINATIONS} destinations, GET /api/shared/{token} ${first.text.length} bytes ` +
      `(${plain.text.length} without stories), GET /api/trips/{id} ${own.text.length} bytes`,
  );
  await runMixed(600, false); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    await runMixed(REQUESTS_PER_ROUND * kinds.length, true);
  }
  const { shared: sharedMs, owner: ownerMs, plain: plainMs } = measured;
  const figures = (name: string, values: number[]) =>
    `${name} p50 ${ms(percentile(values, 50))} p95 ${ms(percentile(values, 95))}`;
  console.log(
    `${figures('shared', sharedMs)}; ${figures('owner', ownerMs)}; ` +
      `${figures('shared without stories', plainMs)}; load average ${loadavg()[0]!.toFixed(1)}`,
  );
  recordBudget({
    name: 'GET /api/shared/{token} (10 destinations, stories included) p95 / GET /api/trips/{id} p95',
    figure: percentile(sharedMs, 95),
    baseline: percentile(ownerMs, 95),
    unit: 'ms',
    budget: { ratioAtMost: BUDGET },
    note:
      `${sharedMs.length} requests each, ${CONNECTIONS} connections, each taking the kinds in turn; shared ` +
      `p50 ${ms(percentile(sharedMs, 50))}, owner p50 ${ms(percentile(ownerMs, 50))}; load ` +
      `average ${loadavg()[0]!.toFixed(1)}`,
  });
  recordBudget({
    name: '(info) GET /api/shared/{token} (10 destinations, without stories) p95 / GET /api/trips/{id} p95',
    figure: percentile(plainMs, 95),
    baseline: percentile(ownerMs, 95),
    unit: 'ms',
    budget: { none: true },
    note:
      `the same rounds; no stories nor journal texts (a smaller answer than the owner's): what ` +
      `a link read costs apart from its answer's size; p50 ${ms(percentile(plainMs, 50))}`,
  });
} finally {
  await client.close();
  await trips.stop();
}
