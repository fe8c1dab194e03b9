import { recordBudget } from '../lib/results';
import type { Side } from './hop-load';

// The budgets and figures the hop bench (hop.bench.ts) records for one connection level, from
// each side's medians over the rounds.

export interface Medians {
  rps(side: Side): number;
  p50(side: Side): number;
  cpu(side: Side): number;
}

/** `rounds` says how the figures were taken; `traceRatio` the traced gateway's sampling. */
export function recordHopBudgets(
  connections: number,
  { rps, p50, cpu }: Medians,
  rounds: string,
  traceRatio: string,
): void {
  const ofDirect = (side: Side) => (rps(side) / rps('direct')).toFixed(2);
  const ofNginx = (side: Side) => (rps(side) / rps('nginx')).toFixed(2);
  // the throughput budget: the gateway as deployed with tracing on (10% sampled,
  // to Jaeger) and request metrics, against the NGINX an operator would otherwise run
  recordBudget({
    name: `GET /api/userDetails via gateway (tracing ${Number(traceRatio) * 100}% sampled, metrics) / via NGINX, ${connections} connections`,
    figure: Math.round(rps('traced')),
    baseline: Math.round(rps('nginx')),
    unit: 'req/s',
    budget: { ratioAtLeast: 0.8 },
    note: `${rounds}; of direct to auth (${Math.round(rps('direct'))} req/s): gateway ${ofDirect('traced')}x, NGINX ${ofDirect('nginx')}x; gateway CPU ${Math.round(cpu('traced'))} µs per request, NGINX's worker ${Math.round(cpu('nginx'))} µs`,
  });
  recordBudget({
    name: `p50 via gateway (tracing ${Number(traceRatio) * 100}% sampled, metrics) / via NGINX, ${connections} connections`,
    figure: p50('traced'),
    baseline: p50('nginx'),
    unit: 'ms',
    budget: { ratioAtMost: 1.5 },
    note: `${rounds}; p50 direct ${p50('direct')} ms, bare hop ${p50('bare')} ms, minimal proxy ${p50('raw')} ms`,
  });
  recordBudget({
    name: `info: GET /api/userDetails via gateway (metrics, no tracing) / direct to auth, ${connections} connections`,
    figure: Math.round(rps('gateway')),
    baseline: Math.round(rps('direct')),
    unit: 'req/s',
    budget: { none: true },
    note: `${rounds}; ${ofNginx('gateway')}x of NGINX; the old budget was >= 0.6x of direct`,
  });
  recordBudget({
    name: `info: GET /api/userDetails via NGINX / direct to auth, ${connections} connections`,
    figure: Math.round(rps('nginx')),
    baseline: Math.round(rps('direct')),
    unit: 'req/s',
    budget: { none: true },
    note: `${rounds}; one worker, upstream keep-alive, buffered access log`,
  });
  recordBudget({
    name: `gateway CPU per proxied request / bare @fastify/http-proxy hop, ${connections} connections`,
    figure: Math.round(cpu('gateway')),
    baseline: Math.round(cpu('bare')),
    unit: 'µs',
    budget: { ratioAtMost: 1.5 },
    note: `${rounds}; process.cpuUsage of each hop's process over a run / requests answered`,
  });
  // what any gateway built on these parts can reach on this machine: the ceilings
  recordBudget({
    name: `ceiling: a bare @fastify/http-proxy hop (no check, no log) / via NGINX, ${connections} connections`,
    figure: Math.round(rps('bare')),
    baseline: Math.round(rps('nginx')),
    unit: 'req/s',
    budget: { none: true },
    note: `${ofDirect('bare')}x of direct; bare hop CPU ${Math.round(cpu('bare'))} µs per request, p50 ${p50('bare')} ms`,
  });
  recordBudget({
    name: `ceiling: a minimal node:http + undici proxy (no Fastify, no check) / via NGINX, ${connections} connections`,
    figure: Math.round(rps('raw')),
    baseline: Math.round(rps('nginx')),
    unit: 'req/s',
    budget: { none: true },
    note: `${ofDirect('raw')}x of direct; its CPU ${Math.round(cpu('raw'))} µs per request, p50 ${p50('raw')} ms`,
  });
  // telemetry's cost on the hop
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
    name: `gateway with tracing (${Number(traceRatio) * 100}% of requests sampled, to Jaeger) and metrics / neither, ${connections} connections`,
    figure: Math.round(rps('traced')),
    baseline: Math.round(rps('untelemetered')),
    unit: 'req/s',
    budget: { ratioAtLeast: 0.9 },
    note: `${cpuNote('traced')}; parentbased_traceidratio ${traceRatio}`,
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
