/**
 * Editing a trip: `PATCH /api/trips/{id}` of a 20-destination trip against
 * `GET /api/trips/{id}` of the same trip, p95 within 3x.
 *
 *   node --import tsx bench/trips/edit.bench.ts
 *
 * trips runs in a process of its own (`service.ts`: its composition root, listening on a port,
 * a fresh database and bucket on the local infra; its outbox relay publishes each change to the
 * real Kafka as it would in production); this process is the client, over HTTP with keep-alive,
 * each request carrying a freshly minted gateway identity proof (test-kit `gatewayHeaders`).
 *
 * CONNECTIONS trips of 20 destinations (stories of 300-1,500 characters, 2 photos each), one
 * per connection: each PATCH must name the version it edits (`If-Match`), so each connection
 * edits its own trip, in turn, with the ETag of its previous answer. A PATCH is what the edit
 * screen sends for one changed story: the whole list of destinations by `_id`, one of them with
 * its new story, and the trip's name. What it does: read the trip, check the version, apply the
 * patch (validated as a new trip), write the trip, its summary and its `trip.updated` in one
 * update, bump the owner's list version, answer the trip (the relay sends the event meanwhile).
 * Rounds alternate PATCH and GET of the same trips.
 */
import { loadavg } from 'node:os';
import { MongoClient } from 'mongodb';
import { testInfra } from '@wayfarer/test-kit';
import { percentile } from '../lib/stats';
import { recordBudget } from '../lib/results';
import { benchTrips, insertTrips, startTripsProcess } from './process';

const DESTINATIONS = 20;
const CONNECTIONS = 4;
const ROUNDS = 6;
const REQUESTS_PER_ROUND = 100;
const BUDGET = 3;

const owner = `bench-editor-${Date.now()}`;
const ms = (v: number) => `${v.toFixed(2)} ms`;

const tripsProcess = await startTripsProcess('edit');
const { port } = tripsProcess;
/** One request as the owner; its latency, ETag and body (throws on a non-2xx). */
const call = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  tripsProcess.call(method, path, owner, headers, body);

const client = await MongoClient.connect(testInfra().mongoUrl);
try {
  // --- the trips, stored as the service's insert stores them ---------------------------------
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const words = Array.from({ length: 400 }, () =>
    Array.from({ length: 3 + Math.floor(random() * 7) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join(''),
  );
  const story = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ');
  const trips = benchTrips({
    count: CONNECTIONS,
    owner,
    destinations: DESTINATIONS,
    name: (t) => `Edited trip ${t}`,
    story,
  });
  await insertTrips(client, tripsProcess.mongoDb, trips);

  // --- the loops: one per trip, PATCH with the last ETag, or GET -----------------------------
  const etags = new Map(trips.map((t) => [t._id, '"1"']));
  let edits = 0;
  const patchBody = (trip: (typeof trips)[number]) => {
    const changed = edits++ % DESTINATIONS;
    return JSON.stringify({
      name: `Edited trip ${edits}`,
      destinations: trip.destinations.map((d, i) =>
        i === changed
          ? { _id: d._id, story: `${d.story.slice(0, 200)} (edit ${edits})` }
          : { _id: d._id },
      ),
    });
  };
  const run = async (kind: 'patch' | 'get', count: number): Promise<number[]> => {
    const latencies: number[] = [];
    let left = count;
    await Promise.all(
      trips.map(async (trip) => {
        const path = `/api/trips/${trip._id}`;
        while (left-- > 0) {
          const answer =
            kind === 'get'
              ? await call('GET', path)
              : await call(
                  'PATCH',
                  path,
                  { 'content-type': 'application/json', 'if-match': etags.get(trip._id)! },
                  patchBody(trip),
                );
          if (kind === 'patch') etags.set(trip._id, answer.etag);
          latencies.push(answer.ms);
        }
      }),
    );
    return latencies;
  };

  const first = await call('GET', `/api/trips/${trips[0]!._id}`);
  console.log(
    `trip edit benchmark (Node ${process.version}), trips on port ${port}: ` +
      `${DESTINATIONS} destinations, GET /api/trips/{id} ${first.text.length} bytes`,
  );
  await run('get', 100); // warm-up
  await run('patch', 100);
  const patchMs: number[] = [];
  const getMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['patch', 'get'] as const) : (['get', 'patch'] as const);
    for (const kind of order) {
      (kind === 'patch' ? patchMs : getMs).push(...(await run(kind, REQUESTS_PER_ROUND)));
    }
  }
  const versions = [...etags.values()].join(' ');
  console.log(
    `PATCH p50 ${ms(percentile(patchMs, 50))} p95 ${ms(percentile(patchMs, 95))}; ` +
      `GET p50 ${ms(percentile(getMs, 50))} p95 ${ms(percentile(getMs, 95))}; ` +
      `versions now ${versions}; load average ${loadavg()[0]!.toFixed(1)}`,
  );
  recordBudget({
    name: 'PATCH /api/trips/{id} (20 destinations) p95 / GET /api/trips/{id} p95',
    figure: percentile(patchMs, 95),
    baseline: percentile(getMs, 95),
    unit: 'ms',
    budget: { ratioAtMost: BUDGET },
    note:
      `${patchMs.length} requests each, ${CONNECTIONS} connections (one trip each, each PATCH ` +
      `with the ETag of the last), alternating rounds; PATCH p50 ${ms(percentile(patchMs, 50))}, ` +
      `GET p50 ${ms(percentile(getMs, 50))}; load average ${loadavg()[0]!.toFixed(1)}`,
  });
} finally {
  await client.close();
  await tripsProcess.stop();
}
