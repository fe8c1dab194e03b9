import autocannon from 'autocannon';
import { wrk } from '../lib/wrk';
import type { Proc } from './hop-procs';

// One run of the hop bench (hop.bench.ts): load on one side, its answers checked, its hop's and
// auth's CPU per request over the run.

export const PATH = '/api/userDetails';
/** The load generator: wrk (C, default; `bench/lib/wrk.ts` says why) or autocannon (Node). */
export const LOADGEN = process.env.LOADGEN ?? 'wrk';

export const SIDES = [
  'direct',
  'nginx',
  'gateway',
  'traced',
  'bare',
  'raw',
  'untelemetered',
  'tracedAll',
  'baseline',
] as const;
export type Side = (typeof SIDES)[number];

export interface Run {
  reqPerSec: number;
  p50: number;
  cpuPerRequestUs: number | null;
  /** auth's CPU per request over the same run. */
  authCpuUs: number;
}

/** `side`'s load at `url` with `headers`; `hop`: the process whose CPU is its cost. */
export async function run(
  side: Side,
  { url, headers }: { url: string; headers: Record<string, string> },
  hop: Proc | undefined,
  auth: Proc,
  connections: number,
  seconds: number,
): Promise<Run> {
  const cpuBefore = hop ? await hop.cpu() : 0;
  const authBefore = await auth.cpu();
  const result =
    LOADGEN === 'wrk'
      ? await wrk({ url: `${url}${PATH}`, connections, seconds, headers })
      : await autocannonRun(`${url}${PATH}`, connections, seconds, headers);
  const cpuAfter = hop ? await hop.cpu() : 0;
  const authAfter = await auth.cpu();
  const ok = result.requests - result.non2xx;
  // an answer wrk waited over 2 s for is a stall of a busy machine, not a failure: said, kept
  const failed = result.errors - result.timeouts;
  if (result.non2xx > 0 || failed > 0) {
    throw new Error(`${side}: ${result.non2xx} non-2xx answers, ${failed} socket errors`);
  }
  if (result.timeouts > 0) {
    console.error(`${side}, ${connections} connections: ${result.timeouts} answers over 2 s`);
  }
  return {
    reqPerSec: result.reqPerSec,
    p50: result.p50,
    cpuPerRequestUs: hop ? (cpuAfter - cpuBefore) / ok : null,
    authCpuUs: (authAfter - authBefore) / ok,
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
    timeouts: result.timeouts,
  };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
