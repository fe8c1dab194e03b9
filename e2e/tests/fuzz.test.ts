import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { GatewayEnv, PROXY_ROUTES } from '@wayfarer/gateway';
import { api } from '../support/api';
import {
  describeRaw,
  halfClosed,
  sendRaw,
  type RawAnswer,
  type RawRequest,
} from '../support/fuzz/raw-http';
import { fuzzRoutes, type FuzzRoute } from '../support/fuzz/routes';
import {
  buildWorld,
  changedParts,
  PARTS,
  snapshot,
  stackProcesses,
  UserCount,
  type Part,
  type Snapshot,
  type World,
} from '../support/fuzz/world';

/**
 * Generated requests (fast-check) to every `/api` route of the gateway's table, sent as a
 * signed-in user through the real gateway to the real services of the e2e stack, over raw
 * sockets (lying lengths, broken chunks, any byte, characters URL parsers disagree on in the
 * path). Each request must be answered, below 500, never 401 when signed in (but a login's wrong
 * credentials), within the gateway's upstream timeout, crash no process (the runner would restart it: its
 * restart count is checked), and, when refused, change nothing (the caller's parts a route may
 * touch are read again after each refusal; everything, the other users' data included, after
 * each route). A failure is shrunk to a small request, printed with the seed and the replay.
 *
 * FUZZ_SEED (default 18), FUZZ_RUNS (requests per route before shrinking, default 100),
 * FUZZ_ONLY (routes, comma-separated, e.g. 'POST /api/trips'), FUZZ_ROUTE_MS (time per route at most, default
 * 20 s), FUZZ_BUDGET_MS (the whole suite's, shared out among the routes, default 150 s),
 * FUZZ_PATH (with the seed and the route: replays the failure printed with that path).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 18);
const RUNS = Number(process.env.FUZZ_RUNS ?? 100);
const ONLY = process.env.FUZZ_ONLY?.split(',').map((name) => name.trim());
const ROUTE_TIME_LIMIT_MS = Number(process.env.FUZZ_ROUTE_MS ?? 20_000);
/**
 * The whole suite's time, shared out among the routes still to run (each at most
 * ROUTE_TIME_LIMIT_MS, at least MIN_ROUTE_MS): a slow machine sends fewer requests per route
 * instead of taking longer.
 */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 150_000);
const MIN_ROUTE_MS = 3_000;
/** fast-check's path of a failure (printed with it): with its seed, replays just that request. */
const REPLAY_PATH = process.env.FUZZ_PATH;
/** The gateway's upstream timeout: no answer may take longer (it would have answered 504). */
const ANSWER_LIMIT_MS: number = GatewayEnv.shape.UPSTREAM_TIMEOUT_MS.parse(undefined);
/** Parts no accepted request changes either: the caller's session, the other users' data. */
const FIXED: readonly Part[] = ['session', 'others'];
/** Every part of the caller's (the other users' are compared after each route). */
const OWN_PARTS: readonly Part[] = PARTS.filter((p) => p !== 'others');
const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/** The gateway's port (the e2e stack's, 18080). */
const gatewayPort = () => Number(new URL(inject('baseUrl')).port);

type Processes = Awaited<ReturnType<typeof stackProcesses>>;

interface Finding {
  route: string;
  problem: string;
  request: string;
}

const sent = new Map<string, number>();
/** Each route's slowest answer (printed with the counts). */
const slowest = new Map<string, { ms: number; status: number | null }>();
const findings: Finding[] = [];
let world: World;
let users: UserCount;

const preview = (a: RawAnswer) => a.body.toString('utf8').slice(0, 200).replace(/\s+/g, ' ');

/** A 4xx body as the bar asks: JSON with an `error` and a `message`. */
function errorShaped(a: RawAnswer): boolean {
  try {
    const json = JSON.parse(a.body.toString('utf8')) as { error?: unknown; message?: unknown };
    return typeof json.error === 'string' && typeof json.message === 'string';
  } catch {
    return false;
  }
}

/** The `error` code of a JSON answer, if it has one. */
function errorCode(a: RawAnswer): unknown {
  try {
    return (JSON.parse(a.body.toString('utf8')) as { error?: unknown }).error;
  } catch {
    return undefined;
  }
}

/** Whether the request carries the caller's session cookie, and no other Cookie header. */
function signedIn(req: RawRequest): boolean {
  const cookies = req.headers.filter(([name]) => name.toLowerCase() === 'cookie');
  return cookies.length === 1 && cookies[0]![1] === world.caller.header;
}

/** Processes that restarted, stopped or changed pid since `before`. */
function crashedSince(before: Processes, now: Processes): string[] {
  return now
    .filter((p) => {
      const was = before.find((b) => b.name === p.name);
      return !was || p.restarts !== was.restarts || p.pid !== was.pid || p.state !== 'running';
    })
    .map((p) => `${p.name} (${p.state}, restart ${p.restarts})`);
}

/** Waits until every process runs and the gateway answers the caller; the processes then. */
async function settled(): Promise<Processes> {
  let procs: Processes = [];
  await vi.waitFor(
    async () => {
      procs = await stackProcesses();
      expect(procs.filter((p) => p.state !== 'running')).toEqual([]);
      expect((await fetch(`http://127.0.0.1:${gatewayPort()}/readyz`)).status).toBe(200);
      expect((await api('/api/protected', world.caller)).status).toBe(200);
    },
    { timeout: 90_000, interval: 250 },
  );
  return procs;
}

/** One route's run: its state between requests. */
class RouteRun {
  baseline: Snapshot = {};
  procs: Processes = [];
  constructor(readonly route: FuzzRoute) {}

  async start() {
    this.procs = await settled();
    this.baseline = await snapshot(world, users);
  }

  /**
   * The request being handled: fast-check's time limit ends a route's run without waiting for
   * it, so a request that hangs is awaited and judged after the run.
   */
  inFlight: { req: RawRequest; problems: Promise<string[]> } | null = null;

  async exercise(req: RawRequest): Promise<string[]> {
    const problems = this.handle(req);
    this.inFlight = { req, problems };
    const found = await problems;
    this.inFlight = null;
    return found;
  }

  /** Sends one request and returns what is wrong with how it was handled. */
  private async handle(req: RawRequest): Promise<string[]> {
    const { route } = this;
    const answer = await sendRaw(gatewayPort(), req, ANSWER_LIMIT_MS + 5_000);
    sent.set(route.name, (sent.get(route.name) ?? 0) + 1);
    if (answer.ms > (slowest.get(route.name)?.ms ?? 0)) {
      slowest.set(route.name, { ms: answer.ms, status: answer.status });
    }
    const problems: string[] = [];
    const status = answer.status;
    if (answer.timedOut) problems.push(`no answer within ${ANSWER_LIMIT_MS + 5_000} ms`);
    else if (answer.ms > ANSWER_LIMIT_MS) {
      problems.push(`answered after ${Math.round(answer.ms)} ms (limit ${ANSWER_LIMIT_MS} ms)`);
    }
    if (status === null && !answer.timedOut && !halfClosed(req)) {
      problems.push(`the connection ended without an answer (${answer.error ?? 'closed'})`);
    }
    if (status !== null && status >= 500) problems.push(`${status} ${preview(answer)}`);
    // signed in, whatever the path: never a 401 (one would be the identity proof failing
    // between the gateway and the service), but for a login's wrong credentials
    if (status === 401 && signedIn(req) && errorCode(answer) !== 'invalid_credentials') {
      problems.push(`401 to a signed-in request: ${preview(answer) || '(empty)'}`);
    }
    if (status !== null && status >= 400 && status < 500 && req.method !== 'HEAD') {
      if (!errorShaped(answer)) {
        problems.push(`${status} without a JSON {error, message}: ${preview(answer) || '(empty)'}`);
      }
    }

    // a crash: the runner restarts the process, its restart count tells
    let now = await stackProcesses();
    if (status === null && crashedSince(this.procs, now).length === 0) {
      // a reset connection may be a process dying: give the runner a moment to see the exit
      await new Promise((r) => setTimeout(r, 500));
      now = await stackProcesses();
    }
    const crashed = crashedSince(this.procs, now);
    if (crashed.length > 0) {
      problems.push(`crashed: ${crashed.join(', ')}`);
      this.procs = await settled();
    }

    // a refused request changes nothing the route could touch; an accepted one may (called
    // with another method than its own, a route could touch anything of the caller's)
    const watch =
      req.method === route.name.split(' ')[0]
        ? route.watch
        : SAFE_METHODS.includes(req.method)
          ? []
          : OWN_PARTS;
    if (watch.length > 0) {
      const accepted = status !== null && status >= 200 && status < 300;
      const parts = await snapshot(world, users, watch);
      const changed = changedParts(parts, this.baseline);
      const wrong = accepted ? changed.filter((p) => FIXED.includes(p)) : changed;
      if (wrong.length > 0) {
        problems.push(`${status ?? 'no answer'} but changed: ${wrong.join(', ')}`);
      }
      Object.assign(this.baseline, parts);
    }
    if (problems.length > 0) {
      findings.push({ route: route.name, problem: problems.join('; '), request: describeRaw(req) });
    }
    return problems;
  }
}

const routes = fuzzRoutes().filter((r) => ONLY === undefined || ONLY.includes(r.name));
let startedAt = 0;
let routesDone = 0;

/** This route's share of what is left of the budget. */
function routeTimeLimit(): number {
  const left = BUDGET_MS - (Date.now() - startedAt);
  const share = left / Math.max(1, routes.length - routesDone);
  return Math.round(Math.max(MIN_ROUTE_MS, Math.min(ROUTE_TIME_LIMIT_MS, share)));
}

describe('fuzz: every /api route through the real gateway and services', () => {
  beforeAll(async () => {
    users = new UserCount();
    await users.connect();
    world = await buildWorld();
    startedAt = Date.now();
    process.stdout.write(`fuzz: seed ${SEED}, ${RUNS} runs per route\n`);
  });

  afterAll(async () => {
    await users?.close();
    const total = [...sent.values()].reduce((a, b) => a + b, 0);
    const seconds = Math.round((Date.now() - startedAt) / 1000);
    const lines = [...sent].map(([name, n]) => {
      const slow = slowest.get(name);
      const ms = slow ? `slowest ${Math.round(slow.ms)} ms (${slow.status ?? 'no answer'})` : '';
      return `  ${String(n).padStart(5)}  ${name.padEnd(56)} ${ms}`;
    });
    process.stdout.write(
      `fuzz: ${total} requests sent in ${seconds} s (seed ${SEED})\n${lines.join('\n')}\n` +
        (findings.length
          ? `fuzz: ${findings.length} failing requests (shrinking included):\n` +
            findings.map((f) => `- ${f.route}: ${f.problem}\n  ${f.request}`).join('\n') +
            '\n'
          : ''),
    );
  });

  it('covers every prefix of the gateway table (PROXY_ROUTES)', () => {
    const covered = new Set(fuzzRoutes().map((r) => r.prefix));
    expect(PROXY_ROUTES.map((r) => r.prefix).filter((p) => !covered.has(p))).toEqual([]);
    for (const route of routes)
      expect(route.name.split(' ')[1]!.startsWith(route.prefix)).toBe(true);
  });

  for (const route of routes) {
    it(
      route.name,
      async () => {
        const run = new RouteRun(route);
        await run.start();
        const timeLimit = routeTimeLimit();
        const details = await fc.check(
          fc.asyncProperty(route.request(world), async (req) => {
            const problems = await run.exercise(req);
            if (problems.length > 0) throw new Error(problems.join('; '));
          }),
          {
            seed: SEED,
            numRuns: RUNS,
            plugins: [fc.interruptAfterTimeLimit(timeLimit)],
            ...(REPLAY_PATH ? { path: REPLAY_PATH, endOnFailure: true } : {}),
          },
        );

        routesDone += 1;

        // the request the time limit left unanswered, if any: judged like the others
        const pending = run.inFlight;
        const late = pending ? await pending.problems : [];

        // after the batch: the gateway answers, nothing crashed, nothing else changed
        const procs = await settled();
        const crashed = crashedSince(run.procs, procs);
        const after = await snapshot(world, users);
        const changed = changedParts(after, run.baseline);
        const report = [
          details.failed && details.counterexample === null
            ? `${route.name}: interrupted by its time limit (${timeLimit} ms) before any request passed`
            : '',
          details.failed && details.counterexample !== null
            ? [
                `${route.name}: ${String((details.errorInstance as Error | null)?.message ?? details.errorInstance)}`,
                `smallest failing request (after ${details.numShrinks} shrinks):`,
                `  ${describeRaw((details.counterexample as [RawRequest])[0])}`,
                `replay: FUZZ_SEED=${details.seed} FUZZ_ONLY='${route.name}' FUZZ_PATH=${details.counterexamplePath}`,
              ].join('\n')
            : '',
          pending && late.length
            ? `${route.name}: ${late.join('; ')} (the request in flight at the time limit):\n  ${describeRaw(pending.req)}`
            : '',
          crashed.length ? `crashed during the batch: ${crashed.join(', ')}` : '',
          changed.length
            ? `changed during the batch: ${changed.map((p) => `${p}\n    before: ${run.baseline[p]}\n    after:  ${after[p]}`).join('\n')}`
            : '',
        ].filter(Boolean);
        if (report.length > 0) expect.fail(report.join('\n'));
        if (details.interrupted) {
          process.stdout.write(
            `fuzz: ${route.name}: its ${timeLimit} ms were up after ${details.numRuns} runs\n`,
          );
        }
      },
      ROUTE_TIME_LIMIT_MS + 150_000,
    );
  }
});
