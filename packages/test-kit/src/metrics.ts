/** One sample of a Prometheus text exposition: its labels and value. */
export interface MetricSample {
  labels: Record<string, string>;
  value: number;
}

/**
 * The samples of `name` in a `/metrics` answer (Prometheus text format), e.g.
 * `metricSamples(text, 'wayfarer_outbox_backlog')`; histogram series by their full name
 * (`http_request_duration_seconds_count`).
 */
export function metricSamples(text: string, name: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (m[2] ?? '').matchAll(
      /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g,
    )) {
      labels[key!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ labels, value: Number(m[3]) });
  }
  return samples;
}

/**
 * The value of the one sample of `name` whose labels include `labels`; undefined when there is
 * none (throws when several match: name more labels).
 */
export function metricValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const matching = metricSamples(text, name).filter((s) =>
    Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (matching.length > 1) {
    throw new Error(`${matching.length} samples of ${name} match ${JSON.stringify(labels)}`);
  }
  return matching[0]?.value;
}
