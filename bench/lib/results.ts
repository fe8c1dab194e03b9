/**
 * The one format every benchmark reports its budgets in (`npm run bench` merges them into
 * `bench/results.json` and one table; see bench/README.md).
 *
 * A budget is a figure compared with a baseline measured in the same run (machines are noisy:
 * only ratios travel), or, for a few budgets stated in absolute units (bytes moved), the figure
 * itself against a fixed limit. Each call of `recordBudget`
 * - writes one JSON file into `BENCH_RESULTS_DIR` (default `bench/.results`, not committed), which
 *   `bench/report.ts` merges into the run's table;
 * - appends its row to the bench's run log `bench/results/<area>-<name>.md` (committed: the
 *   history of each budget lives there, never in a README), under one heading per bench process
 *   saying when, on what (Node, CPUs, load average) and at which commit it ran.
 *   `BENCH_RESULTS_LOG=off` skips the log (a trial run not worth keeping).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const resultsDir = () =>
  resolve(process.env.BENCH_RESULTS_DIR ?? join(BENCH_DIR, '.results'));
/** The committed run logs, one markdown file per bench. */
export const RESULTS_LOG_DIR = join(BENCH_DIR, 'results');

/** One row of the table: what `recordBudget` writes, what `bench/results.json` lists. */
export interface BudgetResult {
  /** What is measured, e.g. `GET /api/userDetails via gateway / direct to auth, 10 connections`. */
  name: string;
  /** The measured figure, in `unit`. */
  figure: number;
  /** The baseline measured in the same run, in `unit` (null for an absolute budget). */
  baseline: number | null;
  /** figure / baseline (null for an absolute budget). */
  ratio: number | null;
  /** The budget in words, e.g. `ratio <= 1.5`, `ratio >= 0.6`, `figure < 1000000` (null: informative row). */
  budget: string | null;
  /** Unit of figure and baseline: `ms`, `req/s`, `bytes`, `µs`... */
  unit: string;
  /** Whether the budget holds (null for an informative row without a budget). */
  pass: boolean | null;
  /** The bench file that measured it (relative to the repo root). */
  bench: string;
  /** Anything a reader needs to read the figure (sample counts, what the baseline is). */
  note?: string;
}

/** How a figure is held to its budget. */
export type Budget =
  { ratioAtMost: number } | { ratioAtLeast: number } | { figureBelow: number } | { none: true };

export interface BudgetInput {
  name: string;
  figure: number;
  baseline?: number | null;
  unit: string;
  budget: Budget;
  note?: string;
}

const callerFile = (): string => {
  const main = process.argv[1] ? resolve(process.argv[1]) : 'unknown';
  return relative(resolve(BENCH_DIR, '..'), main);
};

/** Computes ratio and pass/fail of one budget. Pure. */
export function evaluate(input: BudgetInput, bench = callerFile()): BudgetResult {
  const baseline = input.baseline ?? null;
  const ratio = baseline ? input.figure / baseline : null;
  const b = input.budget;
  let budget: string | null;
  let pass: boolean | null;
  if ('ratioAtMost' in b) {
    budget = `ratio <= ${b.ratioAtMost}`;
    pass = ratio !== null && ratio <= b.ratioAtMost;
  } else if ('ratioAtLeast' in b) {
    budget = `ratio >= ${b.ratioAtLeast}`;
    pass = ratio !== null && ratio >= b.ratioAtLeast;
  } else if ('figureBelow' in b) {
    budget = `< ${b.figureBelow} ${input.unit}`;
    pass = input.figure < b.figureBelow;
  } else {
    budget = null;
    pass = null;
  }
  return {
    name: input.name,
    figure: input.figure,
    baseline,
    ratio,
    budget,
    unit: input.unit,
    pass,
    bench,
    ...(input.note ? { note: input.note } : {}),
  };
}

/** `bench/trips/edit.bench.ts` -> `bench/results/trips-edit.md`. */
export function resultsLogFile(bench: string): string {
  const name = bench
    .replace(/^bench\//, '')
    .replace(/\.bench\.ts$|\.ts$/, '')
    .replace(/[^\w.-]+/g, '-');
  return join(RESULTS_LOG_DIR, `${name}.md`);
}

/** Markdown that prettier leaves as it is: the characters it would read as markup, escaped. */
const plain = (text: string) =>
  text.replace(/[\\`*_[\]]/g, (c) => `\\${c}`).replace(/<(?=[A-Za-z/!?])/g, '\\<');

/** One line of a run log, e.g. `- **PASS** PATCH ... p95 / GET p95: 42 ms vs baseline 13 ms = 3.2x (budget ratio <= 3)`. */
export function logLine(r: BudgetResult): string {
  const verdict = r.pass === null ? 'info' : r.pass ? '**PASS**' : '**FAIL**';
  const figures =
    `${formatNumber(r.figure)} ${r.unit}` +
    (r.baseline !== null
      ? ` vs baseline ${formatNumber(r.baseline)} ${r.unit} = ${r.ratio!.toFixed(2)}x`
      : '');
  return (
    `- ${verdict} ${plain(r.name)}: ${plain(figures)}` +
    (r.budget ? ` (budget ${plain(r.budget)})` : '') +
    (r.note ? `; ${plain(r.note)}` : '') +
    '\n'
  );
}

const RUNS_HEADING = '## Runs recorded by the bench';
/** The first paragraph of every run log. */
export const LOG_INTRO =
  'Its runs, appended by the bench itself (`recordBudget`, bench/lib/results.ts), newest last; ' +
  'how to run it and its budgets: bench/README.md.';

const commit = (): string => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: BENCH_DIR,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
};

/** The heading of this process's rows, written before its first row. */
const runHeading = (): string => {
  const at = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const load = loadavg()[0]!.toFixed(1);
  return (
    `### ${at} UTC, Node ${process.version}, ${cpus().length} CPUs, ` +
    `load average ${load}, commit ${commit()}\n\n`
  );
};

let headed = false;

/** Appends one row to the bench's run log, creating the file (and its runs heading) if needed. */
function appendToLog(r: BudgetResult): void {
  if (process.env.BENCH_RESULTS_LOG === 'off') return;
  const file = resultsLogFile(r.bench);
  mkdirSync(dirname(file), { recursive: true });
  if (!existsSync(file)) {
    writeFileSync(file, `# ${r.bench}\n\n${LOG_INTRO}\n`);
  }
  let text = '';
  if (!readFileSync(file, 'utf8').includes(`\n${RUNS_HEADING}\n`)) text += `\n${RUNS_HEADING}\n`;
  if (!headed) text += `\n${runHeading()}`;
  headed = true;
  appendFileSync(file, text + logLine(r));
}

let written = 0;

/** Records one budget's result for `npm run bench` and the bench's run log, prints it, and returns it. */
export function recordBudget(input: BudgetInput): BudgetResult {
  const result = evaluate(input);
  const dir = resultsDir();
  mkdirSync(dir, { recursive: true });
  const slug = `${result.bench}-${++written}`.replace(/[^\w.-]+/g, '_');
  writeFileSync(join(dir, `${slug}.json`), `${JSON.stringify(result, null, 2)}\n`);
  appendToLog(result);
  const verdict = result.pass === null ? 'info' : result.pass ? 'PASS' : 'FAIL';
  console.log(
    `[budget] ${verdict} ${result.name}: ${formatNumber(result.figure)} ${result.unit}` +
      (result.baseline !== null
        ? ` vs baseline ${formatNumber(result.baseline)} ${result.unit} = ${result.ratio!.toFixed(2)}x`
        : '') +
      (result.budget ? ` (budget ${result.budget})` : ''),
  );
  return result;
}

export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString('en');
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
}
