/**
 * The gateway hop: `GET /api/userDetails` through the gateway, at 10 and 50 connections, against
 * the same call through NGINX (`nginx.ts`: Debian's nginx, one worker, upstream
 * keep-alive), the hop an operator would otherwise put in front of auth: budget at least 0.8x
 * NGINX's throughput with the gateway as deployed with tracing on (10% sampled, to Jaeger) and
 * request metrics, and its p50 within 1.5x of NGINX's. Beside it, the gateway's CPU per proxied
 * request against a bare `@fastify/http-proxy` hop to the same auth with no session check
 * (budget: within 1.5x), each hop against direct to auth (info), and the
 * ceilings: the bare hop and a minimal `node:http` + undici proxy against NGINX.
 *
 * auth, the gateway and the bare hop each run in a process of their own (`hop-process.ts`:
 * auth and the gateway booted like their `main.ts`, logs at info as deployed, to /dev/null), so
 * each one's CPU (`process.cpuUsage()` over a run, divided by the requests it answered; NGINX's
 * worker from /proc) is its own; the load comes from wrk here (`LOADGEN=autocannon` for the
 * Node client). A user is registered through the gateway; its session cookie is what the
 * gateway checks. Direct calls, NGINX and the bare hop carry the identity proof auth requires,
 * minted fresh for every run (it binds method and path and lasts 60 s). Rounds are
 * interleaved (every side once per round; ROUNDS times, SECONDS each) and each side's figure
 * is its median round. `HOP_SIDES=nginx,gateway` runs some sides only and prints their
 * medians (no budget); `HOP_BASELINE_TREE` adds another checkout's gateway as `baseline`.
 *
 * Telemetry's cost, the same way: the gateway as deployed (Prometheus request
 * metrics, tracing off: no OTLP endpoint) and with tracing on (service-kit's preload, spans
 * exported to deploy/local's Jaeger) at a production sampling rate (`parentbased_traceidratio`
 * 0.1, `TRACE_RATIO` to change it) against the gateway with neither
 * (`WAYFARER_REQUEST_METRICS=off`, no preload): budget at least 0.9x the throughput each. With
 * every request sampled (`parentbased_always_on`, the local default) it is shown beside them.
 *
 * `PROFILE=1` also starts the gateway with `--cpu-prof` (profile in .data/bench/),
 * `PROFILE=traced` the gateway traced at TRACE_RATIO, `PROFILE=1,traced` both.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { freePort } from '@wayfarer/test-kit/faults';
import { wrkAvailable } from '../lib/wrk';
import { recordHopBudgets } from './hop-budgets';
import { LOADGEN, median, PATH, run as runLoad, SIDES, type Run, type Side } from './hop-load';
import { start, stop, type Proc } from './hop-procs';
import { nginxAvailable, startNginx } from './nginx';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 5);
const CONNECTION_LEVELS = [10, 50];
if (LOADGEN === 'wrk' && !wrkAvailable()) {
  throw new Error('wrk is not installed: apt-get install wrk (scripts/bench.sh does it)');
}
if (!nginxAvailable()) {
  throw new Error('nginx is not installed: apt-get install nginx (scripts/bench.sh does it)');
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
const profiled = (side: string) =>
  process.env.PROFILE?.split(',').includes(side)
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`]
    : [];
const gateway = await start('gateway', gatewayEnv, profiled('1'));
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
const tracedGateway = (sampler: Record<string, string>, execArgv: string[] = []) =>
  start(
    'gateway',
    {
      ...gatewayEnv,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
      OTEL_SERVICE_NAME: 'gateway-bench',
      ...sampler,
    },
    ['--import', '@wayfarer/service-kit/telemetry', ...execArgv],
  );
const traced = await tracedGateway(
  { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: TRACE_RATIO },
  profiled('traced'),
);
const tracedAll = await tracedGateway({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' });
const bare = await start('bare', { AUTH_URL: auth.url });
/**
 * `HOP_BASELINE_TREE=<dir>`: the gateway of another checkout (e.g. `git archive HEAD` unpacked
 * there, its node_modules linked to this one's) as the side `baseline`, to hold a change
 * against what it changes in the same run (with `HOP_SIDES=...,baseline`).
 */
const baselineTree = process.env.HOP_BASELINE_TREE;
/**
 * `HOP_BASELINE_ENV=NAME=value,...`: env of the `baseline` side's own (e.g. `HOT_PATH=off`:
 * this tree's gateway without its hot path), with or without HOP_BASELINE_TREE.
 */
const baselineEnv = Object.fromEntries(
  (process.env.HOP_BASELINE_ENV ?? '')
    .split(',')
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1)]),
);
const baseline =
  baselineTree || Object.keys(baselineEnv).length > 0
    ? await start(
        'gateway',
        { ...gatewayEnv, ...baselineEnv },
        [],
        baselineTree ? join(baselineTree, 'bench/gateway/hop-process.ts') : undefined,
      )
    : gateway;
const raw = await start('raw', { AUTH_URL: auth.url });
const nginx = await startNginx(await freePort(), auth.port);
const nginxProc: Proc = { child: nginx.child, port: 0, url: nginx.url, cpu: nginx.cpu };

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
/**
 * `HOP_SIDES=direct,nginx,gateway` runs only those sides and prints each one's medians, no
 * budget (for trying a change quickly).
 */
const only = process.env.HOP_SIDES?.split(',').map((s) => s.trim()) as Side[] | undefined;
const unknownSide = only?.find((s) => !(SIDES as readonly string[]).includes(s));
if (unknownSide) throw new Error(`HOP_SIDES: no side ${unknownSide} (${SIDES.join(', ')})`);
const sides: readonly Side[] = only ?? SIDES.filter((side) => side !== 'baseline');
const targetOf: Record<Side, () => { url: string; headers: Record<string, string> }> = {
  direct: () => ({ url: auth.url, headers: proofHeaders() }),
  nginx: () => ({ url: nginx.url, headers: proofHeaders() }),
  gateway: () => ({ url: gateway.url, headers: { cookie } }),
  bare: () => ({ url: bare.url, headers: proofHeaders() }),
  raw: () => ({ url: raw.url, headers: proofHeaders() }),
  untelemetered: () => ({ url: untelemetered.url, headers: { cookie } }),
  traced: () => ({ url: traced.url, headers: { cookie } }),
  tracedAll: () => ({ url: tracedAll.url, headers: { cookie } }),
  baseline: () => ({ url: baseline.url, headers: { cookie } }),
};
const hopOf: Partial<Record<Side, Proc>> = {
  nginx: nginxProc,
  gateway,
  bare,
  raw,
  untelemetered,
  traced,
  tracedAll,
  baseline,
};

const run = (side: Side, connections: number, seconds: number) =>
  runLoad(side, targetOf[side](), hopOf[side], auth, connections, seconds);

try {
  // warm-up: JIT, connection pools, the verifier's cache, the revocation copy
  for (const side of sides) await run(side, 10, 2);

  for (const connections of CONNECTION_LEVELS) {
    const runs = Object.fromEntries(SIDES.map((side) => [side, [] as Run[]])) as Record<
      Side,
      Run[]
    >;
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) {
        runs[side].push(await run(side, connections, SECONDS));
      }
    }
    const rps = (side: Side) => median(runs[side].map((r) => r.reqPerSec));
    const p50 = (side: Side) => median(runs[side].map((r) => r.p50));
    const cpu = (side: Side) => median(runs[side].map((r) => r.cpuPerRequestUs!));
    if (only) {
      for (const side of only) {
        const each = runs[side].map((r) => Math.round(r.reqPerSec)).join(' ');
        console.log(
          `${connections} connections, ${side}: ${Math.round(rps(side))} req/s (${each}), p50 ${p50(side)} ms, CPU ${Math.round(cpu(side) ?? 0)} µs per request (auth's ${Math.round(median(runs[side].map((r) => r.authCpuUs)))} µs)`,
        );
      }
      continue;
    }
    const rounds = `${LOADGEN}, ${ROUNDS} interleaved rounds of ${SECONDS} s, medians`;
    recordHopBudgets(connections, { rps, p50, cpu }, rounds, TRACE_RATIO);
  }
} finally {
  await nginx.stop();
  // each process once: `baseline` is the gateway itself unless HOP_BASELINE_TREE is set (a
  // second SIGTERM would kill it before its --cpu-prof profile is written)
  await Promise.all(
    [...new Set([gateway, untelemetered, traced, tracedAll, bare, raw, baseline, auth])].map(stop),
  );
  await dropDatabase(databaseUrl).catch(() => undefined);
}
