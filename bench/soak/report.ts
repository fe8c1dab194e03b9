/**
 * The soak's RSS report (`soak.ts`), also runnable on a soak's output to recompute it:
 *   node --import tsx bench/soak/report.ts <soak output file> [warm-up minutes] [bound MB]
 *
 * V8 and glibc hand memory back in steps, so a process's RSS saw-tooths under load (auth went
 * 288 -> 134 MB between two samples). A leak shows as a rising floor: the bound applies to the
 * growth of the lowest RSS of a window at the end of the warm-up versus one at the end (each a
 * fifth of the time after warm-up, at least a minute); medians, slope and peak are printed too.
 */
import { readFileSync } from 'node:fs';

export interface Sample {
  /** Minutes since the load started. */
  t: number;
  /** RSS in MB per process name. */
  rss: Map<string, number>;
}

export interface RssRow {
  name: string;
  warmFloor: number;
  warmMedian: number;
  endFloor: number;
  endMedian: number;
  /** endFloor - warmFloor: what the bound applies to. */
  growth: number;
  /** Least-squares slope after warm-up, MB per minute. */
  slope: number;
  max: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export function rssRows(samples: Sample[], names: string[], warmupMinutes: number): RssRow[] {
  const last = samples.at(-1)?.t ?? 0;
  const span = Math.max(1, (last - warmupMinutes) / 5);
  const after = samples.filter((s) => s.t >= warmupMinutes);
  const warm = after.filter((s) => s.t <= warmupMinutes + span);
  const end = after.filter((s) => s.t >= last - span);
  return names.map((name) => {
    const values = (list: Sample[]) =>
      list.map((s) => s.rss.get(name)).filter((v): v is number => v !== undefined);
    const pts = after.filter((s) => s.rss.has(name)).map((s) => [s.t, s.rss.get(name)!] as const);
    const mx = pts.reduce((a, [x]) => a + x, 0) / pts.length;
    const my = pts.reduce((a, [, y]) => a + y, 0) / pts.length;
    const slope =
      pts.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) /
      pts.reduce((a, [x]) => a + (x - mx) ** 2, 0);
    const warmFloor = Math.min(...values(warm));
    const endFloor = Math.min(...values(end));
    return {
      name,
      warmFloor,
      warmMedian: median(values(warm)),
      endFloor,
      endMedian: median(values(end)),
      growth: endFloor - warmFloor,
      slope,
      max: Math.max(...values(samples)),
    };
  });
}

/** The table, one line per process; `FAIL` where the floor grew by more than `boundMb`. */
export function formatRows(rows: RssRow[], boundMb: number): string[] {
  const signed = (v: number, digits = 1) => (v >= 0 ? '+' : '') + v.toFixed(digits);
  const head = [
    'process',
    'warm-up end: floor / median',
    'end: floor / median',
    'floor growth',
    'slope MB/min',
    'peak',
    '',
  ];
  const table = rows.map((r) => [
    r.name,
    `${r.warmFloor.toFixed(1)} / ${r.warmMedian.toFixed(1)}`,
    `${r.endFloor.toFixed(1)} / ${r.endMedian.toFixed(1)}`,
    signed(r.growth),
    signed(r.slope, 2),
    r.max.toFixed(1),
    r.growth > boundMb ? `FAIL: floor grew more than ${boundMb} MB` : 'ok',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(head), ...table.map(line)];
}

/** The samples of a soak's output (its `rss MB name value, ...` lines). */
export function parseSamples(output: string): Sample[] {
  const samples: Sample[] = [];
  let start: number | null = null;
  for (const line of output.split('\n')) {
    const m = /^\[soak (\S+)\] rss MB (.*) \(\d+ in flight\)$/.exec(line);
    if (!m) continue;
    const at = Date.parse(m[1]!);
    start ??= at;
    const rss = new Map<string, number>();
    for (const part of m[2]!.split(', ')) {
      const [name, value] = part.split(' ');
      rss.set(name!, Number(value));
    }
    samples.push({ t: (at - start) / 60_000, rss });
  }
  return samples;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, warmup = '2', bound = '40'] = process.argv.slice(2);
  if (!file) throw new Error('usage: report.ts <soak output> [warm-up minutes] [bound MB]');
  const samples = parseSamples(readFileSync(file, 'utf8'));
  const names = [...new Set(samples.flatMap((s) => [...s.rss.keys()]))];
  for (const line of formatRows(rssRows(samples, names, Number(warmup)), Number(bound))) {
    console.log(line);
  }
}
