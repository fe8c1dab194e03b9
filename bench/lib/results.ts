/**
 * The one format every benchmark reports its budgets in (`npm run bench` merges them into
 * `bench/results.json` and one table; see bench/README.md).
 *
 * A budget is a figure compared with a baseline measured in the same run (machines are noisy:
 * only ratios travel), or, for a few budgets the issue states in absolute units (bytes moved),
 * the figure itself against a fixed limit. Each call of `recordBudget` writes one JSON file into
 * `BENCH_RESULTS_DIR` (default `bench/.results`); a bench run alone still prints its row.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const resultsDir = () =>
  resolve(process.env.BENCH_RESULTS_DIR ?? join(BENCH_DIR, '.results'));

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

let written = 0;

/** Records one budget's result for `npm run bench`, prints it, and returns it. */
export function recordBudget(input: BudgetInput): BudgetResult {
  const result = evaluate(input);
  const dir = resultsDir();
  mkdirSync(dir, { recursive: true });
  const slug = `${result.bench}-${++written}`.replace(/[^\w.-]+/g, '_');
  writeFileSync(join(dir, `${slug}.json`), `${JSON.stringify(result, null, 2)}\n`);
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
