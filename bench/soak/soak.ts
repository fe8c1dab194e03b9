/**
 * Soak: the whole stack under a moderate mixed load for N minutes, every process's RSS sampled
 * every 10 s ("every service's RSS flat after warm-up"). Not part of CI.
 *
 *   bash bench/soak/run.sh            (or npm run soak; infra up: npm run infra:up)
 *
 * Starts the stack like the e2e tests do (scripts/stack, namespace `soak`, ports 28080/24001...),
 * registers SOAK_USERS users, then each second starts SOAK_RPS actions of a weighted mix, all
 * through the gateway on loopback: login, userDetails, create a trip with small photos (and
 * delete the user's oldest beyond 5, so the data set stays the same size), mytrips, trips/:id,
 * a photo, journal read and save, places search. Each user has its own client address
 * (X-Forwarded-For, the soak stack trusts loopback as its proxy), so the gateway's per-address
 * limits see ordinary users. At most SOAK_RPS x duration actions, at most 32 in flight, every
 * request with a 30 s timeout.
 *
 * Prints a table of each process's RSS just after the warm-up and at the end (floor and median
 * of each window, `report.ts`), the floor's growth, the least-squares slope after warm-up and
 * the peak, then the answers per action and status. Exit 1 when a process's RSS floor grew by
 * more than SOAK_MAX_GROWTH_MB (default 40) after warm-up, or when more than 1 % of the
 * actions failed (5xx or no answer): a soak that mostly failed says nothing about memory.
 *
 * Env: SOAK_MINUTES (10), SOAK_WARMUP_MINUTES (2, at most a third of the run), SOAK_RPS (12),
 * SOAK_USERS (8), SOAK_MAX_GROWTH_MB (40), SOAK_SAMPLE_SECONDS (10).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { jpegWithGps } from '@wayfarer/test-kit/images';
import { startStack, root } from '../../scripts/stack/stack';
import { portsAt, STACK } from '../../scripts/stack/services';
import { formatRows, rssRows, type Sample } from './report';

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const MINUTES = num('SOAK_MINUTES', 10);
const WARMUP_MINUTES = Math.min(num('SOAK_WARMUP_MINUTES', 2), MINUTES / 3);
const RPS = num('SOAK_RPS', 12);
const USERS = Math.round(num('SOAK_USERS', 8));
const MAX_GROWTH_MB = num('SOAK_MAX_GROWTH_MB', 40);
const SAMPLE_MS = num('SOAK_SAMPLE_SECONDS', 10) * 1000;
const MAX_IN_FLIGHT = 32;
const REQUEST_TIMEOUT_MS = 30_000;
const PASSWORD = 'a long soak password';

const PORTS = portsAt(20_000);

// the soak stack's gateway sits behind "a proxy" on loopback: each user gets its own address
process.env.TRUST_PROXY ??= '127.0.0.1';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stdout.write(`[soak ${new Date().toISOString()}] ${line}\n`);

log(`starting the stack (namespace soak, gateway ${PORTS.gateway})`);
const stack = await startStack({ namespace: 'soak', ports: PORTS, logLevel: 'info' });
const base = stack.url;
let stopping = false;
const stopStack = async () => {
  if (stopping) return;
  stopping = true;
  await stack.stop();
};
process.once('SIGINT', () => void stopStack().then(() => process.exit(130)));
process.once('SIGTERM', () => void stopStack().then(() => process.exit(143)));

/** The stack's processes: this process's children, named by their working directory. */
function stackPids(): Map<string, number> {
  const byDir = new Map(STACK.map((p) => [join(root, p.dir), p.name]));
  const pids = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const name = byDir.get(readlinkSync(`/proc/${entry}/cwd`));
      if (name) pids.set(name, Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

const rssMb = (pid: number): number | null => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
};

// ---------------------------------------------------------------- the users and their actions

interface User {
  n: number;
  email: string;
  ip: string;
  cookie: string;
  trips: { id: string; destinations: string[]; photos: string[] }[];
}

type Outcome = { status: number | 'error'; body?: unknown };

async function call(
  user: User | null,
  method: string,
  path: string,
  body?: FormData,
  json?: unknown,
): Promise<Outcome & { res?: Response }> {
  const headers = new Headers();
  if (user) {
    headers.set('x-forwarded-for', user.ip);
    if (user.cookie) headers.set('cookie', user.cookie);
  }
  if (json !== undefined) headers.set('content-type', 'application/json');
  try {
    const res = await fetch(base + path, {
      method,
      headers,
      body: json !== undefined ? JSON.stringify(json) : body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const type = res.headers.get('content-type') ?? '';
    const parsed = type.includes('json') ? await res.json() : await res.arrayBuffer();
    return { status: res.status, body: parsed, res };
  } catch {
    return { status: 'error' };
  }
}

const sessionOf = (res: Response | undefined) =>
  res?.headers
    .getSetCookie()
    .find((c) => c.startsWith('wayfarer_session='))
    ?.split(';', 1)[0] ?? '';

const runId = Date.now().toString(36);
const photo = await jpegWithGps({ width: 320, height: 240 });

async function register(n: number): Promise<User> {
  const user: User = {
    n,
    email: `soak-${runId}-${n}@example.test`,
    ip: `10.77.${Math.floor(n / 250)}.${(n % 250) + 1}`,
    cookie: '',
    trips: [],
  };
  const form = new FormData();
  form.append('name', `Soak ${n}`);
  form.append('email', user.email);
  form.append('password', PASSWORD);
  const out = await call(user, 'POST', '/api/register', form);
  if (out.status !== 201) throw new Error(`register ${user.email}: ${out.status}`);
  user.cookie = sessionOf(out.res);
  return user;
}

const pick = <T>(items: readonly T[]): T | undefined =>
  items.length ? items[Math.floor(Math.random() * items.length)] : undefined;
const QUERIES = ['par', 'lon', 'tok', 'new', 'ber', 'ro', 'san', 'lis', 'os', 'cape'];

type Action = (user: User) => Promise<Outcome>;
const ACTIONS: Record<string, { weight: number; run: Action }> = {
  login: {
    weight: 1,
    run: async (user) => {
      const out = await call(user, 'POST', '/api/login', undefined, {
        email: user.email,
        password: PASSWORD,
      });
      if (out.status === 200) user.cookie = sessionOf(out.res) || user.cookie;
      return out;
    },
  },
  userDetails: { weight: 3, run: (user) => call(user, 'GET', '/api/userDetails') },
  createTrip: {
    weight: 1,
    run: async (user) => {
      const form = new FormData();
      form.append('name', `Soak trip ${Date.now()}`);
      form.append('startDate', '2026-05-01');
      form.append('endDate', '2026-05-06');
      for (let i = 0; i < 2; i++) {
        form.append(`destinations[${i}][name]`, `Stop ${i}`);
        form.append(`destinations[${i}][startDate]`, `2026-05-0${1 + i * 3}`);
        form.append(`destinations[${i}][endDate]`, `2026-05-0${3 + i * 3}`);
        form.append(`destinations[${i}][latitude]`, String(40 + i));
        form.append(`destinations[${i}][longitude]`, String(10 + i));
        form.append(`destinations[${i}][story]`, 'A short story.');
        form.append(
          `photos[${i}]`,
          new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }),
          'p.jpg',
        );
      }
      const out = await call(user, 'POST', '/api/trips', form);
      if (out.status === 201) {
        const trip = out.body as { _id: string; destinations: { _id: string; photos: string[] }[] };
        user.trips.push({
          id: trip._id,
          destinations: trip.destinations.map((d) => d._id),
          photos: trip.destinations.flatMap((d) => d.photos),
        });
        // a steady data set: the oldest trip goes once a user has more than five
        if (user.trips.length > 5) {
          const oldest = user.trips.shift()!;
          const removed = await call(user, 'DELETE', `/api/trips/${oldest.id}`);
          count('deleteTrip', removed.status);
        }
      }
      return out;
    },
  },
  mytrips: { weight: 3, run: (user) => call(user, 'GET', '/api/mytrips') },
  trip: {
    weight: 3,
    run: (user) => call(user, 'GET', `/api/trips/${pick(user.trips)?.id ?? 'none'}`),
  },
  photo: {
    weight: 3,
    run: (user) =>
      call(user, 'GET', pick(user.trips.flatMap((t) => t.photos)) ?? '/api/photos/x/y'),
  },
  journalGet: {
    weight: 3,
    run: (user) =>
      call(
        user,
        'GET',
        `/api/journal/${pick(user.trips.flatMap((t) => t.destinations)) ?? 'none'}`,
      ),
  },
  journalSave: {
    weight: 1,
    run: (user) =>
      call(user, 'POST', '/api/journal', undefined, {
        destinationId: pick(user.trips.flatMap((t) => t.destinations)) ?? 'none',
        content: `Day ${Date.now()}: ${'we walked along the shore and ate well. '.repeat(20)}`,
        date: new Date().toISOString(),
      }),
  },
  places: {
    weight: 2,
    run: (user) => call(user, 'GET', `/api/places?query=${pick(QUERIES)}&limit=10`),
  },
};
const weighted = Object.entries(ACTIONS).flatMap(([name, a]) => Array(a.weight).fill(name));

const counts = new Map<string, Map<string, number>>();
function count(action: string, status: number | 'error') {
  const byStatus = counts.get(action) ?? new Map<string, number>();
  byStatus.set(String(status), (byStatus.get(String(status)) ?? 0) + 1);
  counts.set(action, byStatus);
}

// ---------------------------------------------------------------- the run

const samples: Sample[] = [];
const started = Date.now();
const sample = () => {
  const rss = new Map<string, number>();
  for (const [name, pid] of stackPids()) {
    const value = rssMb(pid);
    if (value !== null) rss.set(name, value);
  }
  samples.push({ t: (Date.now() - started) / 60_000, rss });
  log(
    `rss MB ${[...rss].map(([name, v]) => `${name} ${v.toFixed(0)}`).join(', ')} (${inFlight} in flight)`,
  );
};

let inFlight = 0;
let exitCode = 0;
try {
  log(`registering ${USERS} users`);
  const users: User[] = [];
  for (let i = 0; i < USERS; i++) users.push(await register(i));
  // everyone starts with a trip, so reads have something to read
  for (const user of users) count('createTrip', (await ACTIONS.createTrip!.run(user)).status);

  log(`load: ${RPS} actions/s for ${MINUTES} min (warm-up ${WARMUP_MINUTES} min)`);
  sample();
  const sampler = setInterval(sample, SAMPLE_MS);
  const deadline = Date.now() + MINUTES * 60_000;
  const maxActions = Math.ceil(RPS * MINUTES * 60);
  let issued = 0;
  const pending = new Set<Promise<void>>();
  while (Date.now() < deadline && issued < maxActions) {
    const tickEnd = Date.now() + 1000;
    for (let i = 0; i < RPS && issued < maxActions; i++) {
      if (inFlight >= MAX_IN_FLIGHT) {
        count('skipped (too many in flight)', 'error');
        continue;
      }
      const name = pick(weighted)!;
      const user = pick(users)!;
      issued++;
      inFlight++;
      const p = ACTIONS[name]!.run(user)
        .then((out) => count(name, out.status))
        .finally(() => {
          inFlight--;
          pending.delete(p);
        });
      pending.add(p);
      await sleep(1000 / RPS / 2);
    }
    await sleep(Math.max(0, tickEnd - Date.now()));
  }
  await Promise.all(pending);
  clearInterval(sampler);
  sample();

  // ------------------------------------------------------------ the report
  const rows = rssRows(
    samples,
    STACK.map((p) => p.name),
    WARMUP_MINUTES,
  );
  console.log(
    `\nRSS per process (MB): ${MINUTES} min at ${RPS} actions/s, ${USERS} users; warm-up ${WARMUP_MINUTES} min; samples every ${SAMPLE_MS / 1000} s`,
  );
  for (const line of formatRows(rows, MAX_GROWTH_MB)) console.log(line);

  let total = 0;
  let failed = 0;
  console.log('\nanswers per action:');
  for (const [action, byStatus] of [...counts].sort()) {
    const parts = [...byStatus].sort().map(([s, c]) => `${s}: ${c}`);
    for (const [s, c] of byStatus) {
      total += c;
      if (s === 'error' || Number(s) >= 500) failed += c;
    }
    console.log(`  ${action.padEnd(30)} ${parts.join(', ')}`);
  }
  console.log(`  ${total} answers, ${failed} failed (5xx or none)`);

  if (rows.some((r) => r.growth > MAX_GROWTH_MB)) exitCode = 1;
  if (failed > total / 100) {
    console.log('FAIL: more than 1 % of the actions failed');
    exitCode = 1;
  }
  console.log(`logs: ${stack.logDir}`);
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await stopStack();
}
process.exit(exitCode);
