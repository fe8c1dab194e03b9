/**
 * At rest: what the whole stack costs while nobody uses it. Budgets: total CPU below 0.05 cores
 * over the window, every Node process below 150 MB RSS, the whole stack below 2 GB.
 *
 *   node --import tsx bench/idle/idle.bench.ts      (infra up: npm run infra:up)
 *
 * Starts the stack as `npm start` runs it (scripts/stack, namespace `idle`, its own ports and
 * databases), loads the demo data through the gateway (scripts/demo), rests IDLE_REST_SECONDS
 * (120) and then reads every process's CPU time at both ends of a IDLE_WINDOW_SECONDS (60)
 * window and its RSS at the end, from /proc: each Node process of the stack with its children,
 * and each infra server of deploy/local (its pid file in `.data/local/pids`, with children).
 * Prints one row per process and the totals.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedDemo } from '../../scripts/demo/seed';
import { portsAt } from '../../scripts/stack/services';
import { root, startStack } from '../../scripts/stack/stack';
import { waitConsumersSteady } from '../lib/consumers';
import { recordBudget } from '../lib/results';
import { cpuSeconds, processTree, rssMb } from '../lib/procs';

const seconds = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
const REST_S = seconds('IDLE_REST_SECONDS', 120);
const WINDOW_S = seconds('IDLE_WINDOW_SECONDS', 60);
const CPU_BUDGET_CORES = 0.05;
const NODE_RSS_BUDGET_MB = 150;
const STACK_RSS_BUDGET_MB = 2048;

/** A stack of its own beside the dev one (+30000: apart from e2e's, the soak's, the clips'). */
const PORTS = portsAt(30_000);

const log = (line: string) => process.stdout.write(`[idle ${new Date().toISOString()}] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Watched {
  name: string;
  kind: 'node' | 'infra';
  pid: number;
}

/** The infra servers deploy/local started (their pid files). */
function infraProcesses(): Watched[] {
  const dir = join(root, '.data/local/pids');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.pid'))
    .map((f) => ({
      name: f.replace(/\.pid$/, ''),
      kind: 'infra' as const,
      pid: Number(readFileSync(join(dir, f), 'utf8').trim()),
    }))
    .filter((p) => Number.isInteger(p.pid) && existsSync(`/proc/${p.pid}`));
}

const treeCpu = (pid: number) => processTree(pid).reduce((sum, p) => sum + cpuSeconds(p), 0);
const treeRss = (pid: number) => processTree(pid).reduce((sum, p) => sum + (rssMb(p) ?? 0), 0);

log(`starting the stack (namespace idle, gateway ${PORTS.gateway})`);
const stack = await startStack({ namespace: 'idle', ports: PORTS, logLevel: 'info' });
try {
  // a long-lived broker holds every earlier run's events: the stack's new groups read them
  // first, and the seed would wait on a journal behind that backlog
  await waitConsumersSteady({ groupPrefix: 'idle-', timeoutMs: 600_000 });
  log('loading the demo data');
  const report = await seedDemo(stack.url);
  log(`demo data: ${report.users.length} users, ${report.trips.made.length} trips made`);
  log(`resting ${REST_S} s`);
  await sleep(REST_S * 1000);

  const watched: Watched[] = [
    ...stack
      .processes()
      .filter((p) => p.state === 'running' && p.pid !== undefined)
      .map((p) => ({ name: p.name, kind: 'node' as const, pid: p.pid! })),
    ...infraProcesses(),
  ];
  const before = new Map(watched.map((w) => [w.name, treeCpu(w.pid)]));
  const started = process.hrtime.bigint();
  log(`measuring ${WINDOW_S} s`);
  await sleep(WINDOW_S * 1000);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const rows = watched.map((w) => ({
    ...w,
    cores: (treeCpu(w.pid) - before.get(w.name)!) / elapsed,
    rss: treeRss(w.pid),
  }));

  const width = Math.max(...rows.map((r) => r.name.length));
  process.stdout.write(`\n${'process'.padEnd(width)}  kind    cores    RSS MB\n`);
  for (const r of rows) {
    process.stdout.write(
      `${r.name.padEnd(width)}  ${r.kind.padEnd(6)} ${r.cores.toFixed(4).padStart(7)} ` +
        `${r.rss.toFixed(0).padStart(9)}\n`,
    );
  }
  const sum = (list: typeof rows, field: 'cores' | 'rss') =>
    list.reduce((total, r) => total + r[field], 0);
  const nodes = rows.filter((r) => r.kind === 'node');
  const infra = rows.filter((r) => r.kind === 'infra');
  process.stdout.write(
    `\nNode processes: ${sum(nodes, 'cores').toFixed(4)} cores, ${sum(nodes, 'rss').toFixed(0)} MB; ` +
      `infra: ${sum(infra, 'cores').toFixed(4)} cores, ${sum(infra, 'rss').toFixed(0)} MB\n\n`,
  );
  const window = `${WINDOW_S} s window after ${REST_S} s of rest, demo data loaded`;
  recordBudget({
    name: 'CPU of the whole stack at rest (Node processes and infra)',
    figure: sum(rows, 'cores'),
    unit: 'cores',
    budget: { figureBelow: CPU_BUDGET_CORES },
    note: `${window}; Node processes ${sum(nodes, 'cores').toFixed(4)}, infra ${sum(infra, 'cores').toFixed(4)}`,
  });
  const largest = nodes.reduce((a, b) => (b.rss > a.rss ? b : a));
  recordBudget({
    name: 'RSS of the largest Node process at rest',
    figure: largest.rss,
    unit: 'MB',
    budget: { figureBelow: NODE_RSS_BUDGET_MB },
    note: `${largest.name}; ${nodes.length} Node processes, ${sum(nodes, 'rss').toFixed(0)} MB in all`,
  });
  recordBudget({
    name: 'RSS of the whole stack at rest (Node processes and infra)',
    figure: sum(rows, 'rss'),
    unit: 'MB',
    budget: { figureBelow: STACK_RSS_BUDGET_MB },
    note: `${window}; infra ${infra.map((r) => r.name).join(', ')}`,
  });
} finally {
  await stack.stop();
}
