/**
 * The gateway hop (issue 9): `GET /api/userDetails` through the gateway against the same call
 * direct to auth, at 10 and 50 connections (budget: at least 0.6x the throughput), and the
 * gateway's CPU per proxied request against a bare `@fastify/http-proxy` hop to the same auth
 * with no session check (budget: within 1.5x).
 *
 * auth, the gateway and the bare hop each run in a process of their own (`hop-process.ts`:
 * auth and the gateway booted like their `main.ts`, logs at info as deployed, to /dev/null), so
 * each one's CPU (`process.cpuUsage()` over a run, divided by the requests it answered) is its
 * own; the load comes from wrk here (`LOADGEN=autocannon` for the Node client). A user is registered through the gateway; its session cookie is
 * what the gateway checks. Direct calls and the bare hop carry the identity proof auth requires,
 * minted fresh for every run (it binds method and path and lasts 60 s). Rounds are
 * interleaved (direct, gateway, bare; ROUNDS times, SECONDS each) and each side's figure is its
 * median round.
 *
 * Telemetry's cost (issue 23), the same way: the gateway as deployed (Prometheus request
 * metrics, tracing off: no OTLP endpoint) and with tracing on (service-kit's preload, spans
 * exported to deploy/local's Jaeger) at a production sampling rate (`parentbased_traceidratio`
 * 0.1, `TRACE_RATIO` to change it) against the gateway with neither
 * (`WAYFARER_REQUEST_METRICS=off`, no preload): budget at least 0.9x the throughput each. With
 * every request sampled (`parentbased_always_on`, the local default) it is shown beside them.
 *
 * `PROFILE=1` also starts the gateway with `--cpu-prof` (profile in .data/bench/).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { SESSION_COOKIE } from '@wayfarer/contracts';
import {
  dropDatabase,
  freshDatabase,
  gatewayHeaders,
  localEnvFile,
  parseEnvFile,
  repoRoot,
  TEST_IDENTITY_PROOF_SECRET,
  testInfra,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { recordBudget } from '../lib/results';
import { wrk, wrkAvailable } from '../lib/wrk';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);
const CONNECTION_LEVELS = [10, 50];
const PATH = '/api/userDetails';
/** The load generator: wrk (C, default; `bench/lib/wrk.ts` says why) or autocannon (Node). */
const LOADGEN = process.env.LOADGEN ?? 'wrk';
if (LOADGEN === 'wrk' && !wrkAvailable()) {
  throw new Error('wrk is not installed: apt-get install wrk (scripts/bench.sh does it)');
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

interface Proc {
  child: ChildProcess;
  port: number;
  url: string;
  cpu(): Promise<number>; // user + system, µs
}

const children: ChildProcess[] = [];
process.once('exit', () => children.forEach((c) => c.kill('SIGKILL')));
// interrupted (Ctrl-C, a timeout): exit, so that the hook above stops every child
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(1));

async function start(role: string, env: Record<string, string>, execArgv: string[] = []) {
  const port = await freePort();
  const child = fork(join(import.meta.dirname, 'hop-process.ts'), {
    execArgv: ['--import', 'tsx', ...execArgv],
    env: { ...process.env, ...env, ROLE: role, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${role} exited (${code})`)));
    child.on('message', (m: { ready?: boolean }) => m.ready && resolve());
  });
  let nextId = 1;
  const proc: Proc = {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    cpu: () =>
      new Promise((resolve) => {
        const id = nextId++;
        const onMessage = (m: { id?: number; cpu?: NodeJS.CpuUsage }) => {
          if (m.id !== id || !m.cpu) return;
          child.off('message', onMessage);
          resolve(m.cpu.user + m.cpu.system);
        };
        child.on('message', onMessage);
        child.send({ id, kind: 'cpu' });
      }),
  };
  return proc;
}

async function stop(proc: Proc) {
  if (proc.child.exitCode !== null) return;
  proc.child.removeAllListeners('exit');
  const exited = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill('SIGTERM');
  await exited;
}

const secret = TEST_IDENTITY_PROOF_SECRET;
const keyDir = mkdtempSync(join(tmpdir(), 'wayfarer-bench-keys-'));
const databaseUrl = await freshDatabase('bench_hop_auth');
const profileDir = join(repoRoot, '.data/bench');
mkdirSync(profileDir, { recursive: true });

const auth = await start('auth', { DATABASE_URL: databaseUrl, SESSION_KEY_DIR: keyDir });
const gatewayEnv = {
  // a Redis database of its own: its rate-limit counters (100,000s of requests from
  // 127.0.0.1) must not reach the gateways of tests sharing the infra's Redis
  REDIS_URL: `${testInfra().redisUrl.replace(/\/\d*$/, '')}/7`,
  AUTH_URL: auth.url,
  SESSION_KEY_DIR: keyDir,
  IDENTITY_PROOF_SECRET: secret,
  // a benchmark from one address: the limit must not be what is measured
  RATE_LIMIT_PER_MINUTE: '1000000000',
};
const gateway = await start(
  'gateway',
  gatewayEnv,
  process.env.PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
);
// telemetry's cost: the gateway without request metrics, and with tracing on as well
const otlpEndpoint =
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT ??
  (existsSync(localEnvFile)
    ? parseEnvFile(readFileSync(localEnvFile, 'utf8')).OTEL_EXPORTER_OTLP_ENDPOINT
    : undefined);
if (!otlpEndpoint) throw new Error('no OTLP endpoint: start Jaeger with deploy/local/up');
const untelemetered = await start('gateway', {
  ...gatewayEnv,
  WAYFARER_REQUEST_METRICS: 'off',
  OTEL_EXPORTER_OTLP_ENDPOINT: '',
});
const TRACE_RATIO = process.env.TRACE_RATIO ?? '0.1';
const tracedGateway = (sampler: Record<string, string>) =>
  start(
    'gateway',
    {
      ...gatewayEnv,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
      OTEL_SERVICE_NAME: 'gateway-bench',
      ...sampler,
    },
    ['--import', '@wayfarer/service-kit/telemetry'],
  );
const traced = await tracedGateway({
  OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
  OTEL_TRACES_SAMPLER_ARG: TRACE_RATIO,
});
const tracedAll = await tracedGateway({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' });
const bare = await start('bare', { AUTH_URL: auth.url });
const raw = await start('raw', { AUTH_URL: auth.url });

// a user, registered through the gateway: its session cookie is what the gateway checks
const form = new FormData();
const suffix = uniqueSuffix();
form.append('name', `Bench ${suffix}`);
form.append('email', `bench-${suffix}@example.com`);
form.append('password', 'bench-password-123');
const registered = await fetch(`${gateway.url}/api/register`, { method: 'POST', body: form });
if (registered.status !== 201 && registered.status !== 200) {
  throw new Error(`register answered ${registered.status}: ${await registered.text()}`);
}
const cookie = registered.headers
  .getSetCookie()
  .find((c) => c.startsWith(`${SESSION_COOKIE}=`))
  ?.split(';', 1)[0];
if (!cookie) throw new Error('register set no session cookie');
const me = await fetch(`${gateway.url}${PATH}`, { headers: { cookie } });
if (me.status !== 200) throw new Error(`userDetails via the gateway: ${me.status}`);
const { userId } = (await (
  await fetch(`${gateway.url}/api/protected`, { headers: { cookie } })
).json()) as { userId: string };

/** The proof auth wants, as the gateway would mint it (fresh per run: it lasts 60 s). */
const proofHeaders = () => gatewayHeaders('GET', PATH, { userId }, secret);

type Side = 'direct' | 'gateway' | 'bare' | 'raw' | 'untelemetered' | 'traced' | 'tracedAll';
const SIDES = ['direct', 'gateway', 'bare', 'raw', 'untelemetered', 'traced', 'tracedAll'] as const;
const targetOf: Record<Side, () => { url: string; headers: Record<string, string> }> = {
  direct: () => ({ url: auth.url, headers: proofHeaders() }),
  gateway: () => ({ url: gateway.url, headers: { cookie } }),
  bare: () => ({ url: bare.url, headers: proofHeaders() }),
  raw: () => ({ url: raw.url, headers: proofHeaders() }),
  untelemetered: () => ({ url: untelemetered.url, headers: { cookie } }),
  traced: () => ({ url: traced.url, headers: { cookie } }),
  tracedAll: () => ({ url: tracedAll.url, headers: { cookie } }),
};
const hopOf: Partial<Record<Side, Proc>> = {
  gateway,
  bare,
  raw,
  untelemetered,
  traced,
  tracedAll,
};

interface Run {
  reqPerSec: number;
  p50: number;
  cpuPerRequestUs: number | null;
}

async function run(side: Side, connections: number, seconds: number): Promise<Run> {
  const { url, headers } = targetOf[side]();
  const hop = hopOf[side];
  const cpuBefore = hop ? await hop.cpu() : 0;
  const result =
    LOADGEN === 'wrk'
      ? await wrk({ url: `${url}${PATH}`, connections, seconds, headers })
      : await autocannonRun(`${url}${PATH}`, connections, seconds, headers);
  const cpuAfter = hop ? await hop.cpu() : 0;
  const ok = result.requests - result.non2xx;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${side}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return {
    reqPerSec: result.reqPerSec,
    p50: result.p50,
    cpuPerRequestUs: hop ? (cpuAfter - cpuBefore) / ok : null,
  };
}

async function autocannonRun(
  url: string,
  connections: number,
  seconds: number,
  headers: Record<string, string>,
) {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return {
    reqPerSec: result['2xx'] / seconds,
    requests: result['2xx'] + result.non2xx,
    non2xx: result.non2xx,
    errors: result.errors,
    p50: result.latency.p50,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

try {
  // warm-up: JIT, connection pools, the verifier's cache, the revocation copy
  for (const side of SIDES) await run(side, 10, 2);

  for (const connections of CONNECTION_LEVELS) {
    const runs: Record<Side, Run[]> = {
      direct: [],
      gateway: [],
      bare: [],
      raw: [],
      untelemetered: [],
      traced: [],
      tracedAll: [],
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of SIDES) {
        runs[side].push(await run(side, connections, SECONDS));
      }
    }
    const rps = (side: Side) => median(runs[side].map((r) => r.reqPerSec));
    const p50 = (side: Side) => median(runs[side].map((r) => r.p50));
    const cpu = (side: Side) => median(runs[side].map((r) => r.cpuPerRequestUs!));
    const note = `${LOADGEN}, ${ROUNDS} interleaved rounds of ${SECONDS} s, medians; p50 via gateway ${p50('gateway')} ms, direct ${p50('direct')} ms, bare hop ${p50('bare')} ms; bare hop ${Math.round(rps('bare'))} req/s`;
    recordBudget({
      name: `GET /api/userDetails via gateway / direct to auth, ${connections} connections`,
      figure: Math.round(rps('gateway')),
      baseline: Math.round(rps('direct')),
      unit: 'req/s',
      budget: { ratioAtLeast: 0.6 },
      note,
    });
    recordBudget({
      name: `gateway CPU per proxied request / bare @fastify/http-proxy hop, ${connections} connections`,
      figure: Math.round(cpu('gateway')),
      baseline: Math.round(cpu('bare')),
      unit: 'µs',
      budget: { ratioAtMost: 1.5 },
      note: `${LOADGEN}, ${ROUNDS} interleaved rounds of ${SECONDS} s, medians; process.cpuUsage of each hop's process over a run / requests answered`,
    });
    // what any gateway built on these parts can reach on this machine: the ceilings
    recordBudget({
      name: `ceiling: a bare @fastify/http-proxy hop (no check, no log) / direct to auth, ${connections} connections`,
      figure: Math.round(rps('bare')),
      baseline: Math.round(rps('direct')),
      unit: 'req/s',
      budget: { none: true },
      note: `bare hop CPU ${Math.round(cpu('bare'))} µs per request; the gateway's throughput ratio cannot pass this one`,
    });
    recordBudget({
      name: `ceiling: a minimal node:http + undici proxy (no Fastify) / direct to auth, ${connections} connections`,
      figure: Math.round(rps('raw')),
      baseline: Math.round(rps('direct')),
      unit: 'req/s',
      budget: { none: true },
      note: `its CPU ${Math.round(cpu('raw'))} µs per request, p50 ${p50('raw')} ms`,
    });
    // telemetry's cost on the hop (issue 23)
    const cpuNote = (side: Side) =>
      `CPU per request ${Math.round(cpu(side))} µs vs ${Math.round(cpu('untelemetered'))} µs without telemetry; p50 ${p50(side)} ms vs ${p50('untelemetered')} ms`;
    recordBudget({
      name: `gateway with request metrics / without, ${connections} connections`,
      figure: Math.round(rps('gateway')),
      baseline: Math.round(rps('untelemetered')),
      unit: 'req/s',
      budget: { ratioAtLeast: 0.9 },
      note: cpuNote('gateway'),
    });
    recordBudget({
      name: `gateway with tracing (${Number(TRACE_RATIO) * 100}% of requests sampled, to Jaeger) and metrics / neither, ${connections} connections`,
      figure: Math.round(rps('traced')),
      baseline: Math.round(rps('untelemetered')),
      unit: 'req/s',
      budget: { ratioAtLeast: 0.9 },
      note: `${cpuNote('traced')}; parentbased_traceidratio ${TRACE_RATIO}`,
    });
    recordBudget({
      name: `info: gateway with tracing (every request sampled, to Jaeger) and metrics / neither, ${connections} connections`,
      figure: Math.round(rps('tracedAll')),
      baseline: Math.round(rps('untelemetered')),
      unit: 'req/s',
      budget: { none: true },
      note: `${cpuNote('tracedAll')}; parentbased_always_on (the local default); Jaeger runs on the same machine`,
    });
  }
} finally {
  await Promise.all([gateway, untelemetered, traced, tracedAll, bare, raw, auth].map(stop));
  await dropDatabase(databaseUrl).catch(() => undefined);
}
