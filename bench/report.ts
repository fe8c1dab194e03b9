/**
 * The end of `npm run bench`: merges every budget the benchmarks recorded (`bench/lib/results.ts`)
 * into `bench/results.json`, prints one table, and exits 1 when a budget does not hold or a
 * benchmark failed to run to its end.
 *
 *   node --import tsx bench/report.ts      (scripts/bench.sh runs it after the benchmarks)
 *
 * Reads `BENCH_RESULTS_DIR` (default `bench/.results`): one `*.json` per budget, and `runs.txt`
 * (one line per benchmark run: `<exit code> <file>`, written by scripts/bench.sh). The history
 * of each bench is not here but in its own run log, `bench/results/<area>-<name>.md`, which
 * `recordBudget` appends to as the bench runs.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR, formatNumber, resultsDir, type BudgetResult } from './lib/results';

const dir = resultsDir();
const rows: BudgetResult[] = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as BudgetResult)
  : [];
const runsFile = join(dir, 'runs.txt');
const runs = existsSync(runsFile)
  ? readFileSync(runsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [code, ...file] = line.split(' ');
        return { bench: file.join(' '), exitCode: Number(code) };
      })
  : [];

const failedRuns = runs.filter((r) => r.exitCode !== 0);
const failedBudgets = rows.filter((r) => r.pass === false);
const results = {
  measuredAt: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  runs,
  budgets: rows,
  pass: failedRuns.length === 0 && failedBudgets.length === 0 && rows.length > 0,
};
writeFileSync(join(BENCH_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

const num = (v: number | null, unit = '') =>
  v === null ? '-' : `${formatNumber(v)}${unit ? ` ${unit}` : ''}`;
const table = [
  ['budget', 'figure', 'baseline', 'ratio', 'budget', 'result'],
  ...rows.map((r) => [
    r.name,
    num(r.figure, r.unit),
    num(r.baseline, r.unit),
    r.ratio === null ? '-' : `${r.ratio.toFixed(2)}x`,
    r.budget ?? '-',
    r.pass === null ? 'info' : r.pass ? 'pass' : 'FAIL',
  ]),
];
const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
const line = (row: string[]) =>
  `| ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
console.log(`\nbench results (Node ${process.version}, ${cpus().length} CPUs)\n`);
console.log(line(table[0]!));
console.log(
  `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
);
for (const row of table.slice(1)) console.log(line(row));
for (const run of failedRuns) console.log(`\nFAILED to run: ${run.bench} (exit ${run.exitCode})`);
if (rows.length === 0) console.log('\nno budget was recorded');
console.log(
  `\n${rows.length} budgets: ${rows.filter((r) => r.pass === true).length} pass, ` +
    `${failedBudgets.length} fail, ${rows.filter((r) => r.pass === null).length} informative; ` +
    `${runs.length} benchmarks run, ${failedRuns.length} failed. Written to bench/results.json`,
);
process.exit(results.pass ? 0 : 1);
