/**
 * HTTP load from `wrk` (Debian's package, C, one thread): the load generator of the throughput
 * benchmarks.
 *
 * Why not autocannon: on these 2-core machines the client shares the cores with what it
 * measures, so its own CPU per request is taken from the server's. autocannon (Node) spends
 * about as much CPU per request as the service it loads, wrk several times less; with
 * autocannon a ratio like "through the gateway / direct" measures the client's appetite as much
 * as the gateway's (a real client is on another machine). `scripts/bench.sh` installs wrk when
 * it is missing; `wrkAvailable()` tells a bench run alone.
 */
import { execFile, execFileSync } from 'node:child_process';

export interface WrkResult {
  /** Answers received per second over the run (wrk's `Requests/sec`). */
  reqPerSec: number;
  /** Answers received (2xx and others). */
  requests: number;
  /** Answers that were not 2xx or 3xx. */
  non2xx: number;
  /** Connect, read, write and timeout errors. */
  errors: number;
  /** Of `errors`, the timeouts: answers wrk waited more than 2 s for (a busy machine's stall). */
  timeouts: number;
  /** Latency percentiles in ms (wrk's `--latency` distribution). */
  p50: number;
  p99: number;
}

export function wrkAvailable(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version exits 1 after printing its version
    return (err as { status?: number }).status === 1;
  }
}

const toMs = (value: string, unit: string) =>
  Number(value) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 } as Record<string, number>)[unit]!;

/** Parses wrk's report (with `--latency`). Exported for its unit test. */
export function parseWrk(output: string): WrkResult {
  const number = (re: RegExp) => {
    const m = re.exec(output);
    return m ? Number(m[1]) : 0;
  };
  const latency = (p: string) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(output);
    if (!m) throw new Error(`wrk printed no ${p}% latency:\n${output}`);
    return toMs(m[1]!, m[2]!);
  };
  const requests = /^\s*(\d+) requests in /m.exec(output);
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
  if (!requests || !rps) throw new Error(`unreadable wrk output:\n${output}`);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  return {
    reqPerSec: Number(rps[1]),
    requests: Number(requests[1]),
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    errors: errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    timeouts: errors ? Number(errors[4]) : 0,
    p50: latency('50'),
    p99: latency('99'),
  };
}

/** `wrk -t1 -c<connections> -d<seconds>s --latency` with the headers given; loopback only. */
export function wrk(options: {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
}): Promise<WrkResult> {
  const { hostname } = new URL(options.url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(hostname)) {
    throw new Error(`benchmarks load loopback addresses only, not ${hostname}`);
  }
  const args = [
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--latency',
    ...Object.entries(options.headers ?? {}).flatMap(([name, value]) => [
      '-H',
      `${name}: ${value}`,
    ]),
    options.url,
  ];
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { timeout: (options.seconds + 30) * 1000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`wrk failed: ${err.message}\n${stderr}`));
      try {
        resolve(parseWrk(stdout));
      } catch (parseErr) {
        reject(parseErr as Error);
      }
    });
  });
}
