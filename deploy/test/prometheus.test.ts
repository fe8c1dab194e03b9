import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { localEnvFile, parseEnvFile } from '@wayfarer/test-kit';
import { DEFAULT_PORTS, STACK } from '../../scripts/stack/services';
import { LOCAL_STACKS, metricsPort, stackTargets } from '../prometheus/targets';

// The alert rules (promtool), the metric names contract they read, the local stacks' scrape
// targets, and the Prometheus and Jaeger that deploy/local/up runs (real servers: start them
// with deploy/local/up).

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const promDir = join(root, 'deploy/prometheus');
const rulesFile = join(promDir, 'rules/wayfarer.rules.yml');
const testsFile = join(promDir, 'tests/wayfarer.rules.test.yml');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface AlertTest {
  eval_time: string;
  alertname: string;
  exp_alerts?: unknown[];
}
const rules = (parse(readFileSync(rulesFile, 'utf8')) as { groups: { rules: Rule[] }[] }).groups
  .flatMap((g) => g.rules)
  .filter((r) => r.alert);
const ruleTests = (
  parse(readFileSync(testsFile, 'utf8')) as { tests: { alert_rule_test?: AlertTest[] }[] }
).tests.flatMap((t) => t.alert_rule_test ?? []);

function promtool(...args: string[]) {
  const r = spawnSync('promtool', args, { cwd: root, encoding: 'utf8' });
  if (r.error) {
    throw new Error(`promtool is missing (Debian package prometheus; deploy/local/up installs it)`);
  }
  return r;
}

/** The metric names a PromQL expression reads (histogram series mapped to their histogram). */
export function metricNames(expr: string): string[] {
  const keywords = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'offset']);
  const stripped = expr
    .replace(/"[^"]*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '');
  const names = [...stripped.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map((m) => m[1]!)
    .filter((n) => !keywords.has(n) && !/^\d/.test(n) && !/^\d+[smhdwy]$/.test(n));
  return [...new Set(names.map((n) => n.replace(/_(bucket|count|sum)$/, '')))];
}

describe('alert rules (deploy/prometheus/rules)', () => {
  it('pass promtool check rules', () => {
    const r = promtool('check', 'rules', rulesFile);
    expect(r.stdout + r.stderr).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });

  it('pass their unit tests (promtool test rules)', () => {
    const r = promtool('test', 'rules', testsFile);
    expect(r.stdout + r.stderr, r.stdout + r.stderr).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });

  it('page for what the operators asked: 5xx, p99, outbox, consumer lag, a service down, a dependency', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual(
      [
        'WayfarerConsumerLagGrowing',
        'WayfarerDependencyDown',
        'WayfarerHigh5xxRate',
        'WayfarerLatencyP99OverBudget',
        'WayfarerOutboxStalled',
        'WayfarerServiceDown',
      ].sort(),
    );
    for (const r of rules) {
      expect(r.labels?.severity, r.alert).toBe('page');
      expect(r.annotations?.summary, r.alert).toBeTruthy();
      expect(r.for, `${r.alert} needs a 'for' (no page on one bad scrape)`).toMatch(/^\d+m$/);
    }
  });

  it.each(rules.map((r) => r.alert!))('%s has a firing and a not-firing test', (alert) => {
    const cases = ruleTests.filter((t) => t.alertname === alert);
    expect(cases.some((t) => (t.exp_alerts ?? []).length > 0)).toBe(true);
    expect(cases.some((t) => (t.exp_alerts ?? []).length === 0)).toBe(true);
  });

  it('read only metrics of the contract in deploy/prometheus/README.md', () => {
    const readme = readFileSync(join(promDir, 'README.md'), 'utf8');
    const used = [...new Set(rules.flatMap((r) => metricNames(r.expr)))].sort();
    expect(used).toEqual(
      [
        'http_request_duration_seconds',
        'kafka_consumer_lag',
        'up',
        'wayfarer_dependency_up',
        'wayfarer_outbox_oldest_age_seconds',
      ].sort(),
    );
    for (const name of used) expect(readme, name).toContain(`\`${name}\``);
  });
});

describe('the scrape job for Kubernetes (deploy/prometheus/kubernetes.yml)', () => {
  interface ScrapeJob {
    job_name: string;
    kubernetes_sd_configs?: { role: string; namespaces?: { names: string[] } }[];
    static_configs?: { targets: string[] }[];
    relabel_configs: { source_labels?: string[]; target_label?: string; action?: string }[];
  }
  const file = join(promDir, 'kubernetes.yml');
  const config = parse(readFileSync(file, 'utf8')) as {
    rule_files: string[];
    scrape_configs: ScrapeJob[];
  };
  const job = config.scrape_configs.find((j) => j.job_name === 'wayfarer')!;

  it('keeps the annotated pods of namespace wayfarer and labels them as the rules expect', () => {
    expect(job.kubernetes_sd_configs).toEqual([
      { role: 'pod', namespaces: { names: ['wayfarer'] } },
    ]);
    const labelFrom = (label: string) =>
      job.relabel_configs.find((r) => r.target_label === label)?.source_labels;
    expect(labelFrom('service')).toEqual(['__meta_kubernetes_pod_label_app_kubernetes_io_name']);
    expect(labelFrom('process')).toEqual(['__meta_kubernetes_pod_name']);
    expect(labelFrom('stack')).toEqual(['__meta_kubernetes_namespace']);
    expect(labelFrom('__metrics_path__')).toEqual([
      '__meta_kubernetes_pod_annotation_prometheus_io_path',
    ]);
  });

  it('passes promtool check config (Debian builds Prometheus without Kubernetes discovery: a static target stands in)', () => {
    const { kubernetes_sd_configs: _sd, ...rest } = job;
    const copy = {
      ...config,
      rule_files: config.rule_files.map((f) => join(promDir, f)),
      scrape_configs: [{ ...rest, static_configs: [{ targets: ['10.0.0.1:4001'] }] }],
    };
    const dir = mkdtempSync(join(tmpdir(), 'wayfarer-prom-'));
    try {
      writeFileSync(join(dir, 'prometheus.yml'), stringify(copy));
      const r = promtool('check', 'config', join(dir, 'prometheus.yml'));
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain('SUCCESS: 1 rule files found');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scrape targets of the local stacks (deploy/prometheus/targets.ts)', () => {
  it.each(Object.entries(LOCAL_STACKS))(
    '%s: one target per process of the stack, on distinct ports',
    (stack, ports) => {
      const groups = stackTargets(stack, ports);
      expect(groups.map((g) => g.labels.process).sort()).toEqual(STACK.map((p) => p.name).sort());
      const addrs = groups.flatMap((g) => g.targets);
      expect(new Set(addrs).size).toBe(STACK.length);
      for (const g of groups) {
        expect(g.labels.stack).toBe(stack);
        expect(g.targets[0]).toMatch(/^127\.0\.0\.1:\d+$/);
      }
      // chat's two instances are one service
      expect(groups.find((g) => g.labels.process === 'chat2')?.labels.service).toBe('chat');
    },
  );

  it('scrapes a service on its own port and the gateway on a port that is not its public one', () => {
    expect(metricsPort('trips', DEFAULT_PORTS)).toBe(DEFAULT_PORTS.trips);
    expect(metricsPort('gateway', DEFAULT_PORTS)).not.toBe(DEFAULT_PORTS.gateway);
    const all = Object.values(LOCAL_STACKS).flatMap((ports) => Object.values(ports) as number[]);
    for (const ports of Object.values(LOCAL_STACKS)) {
      expect(all).not.toContain(metricsPort('gateway', ports));
    }
  });
});

// ------------------------------------------------------------------ the running servers
const env = {
  ...(existsSync(localEnvFile) ? parseEnvFile(readFileSync(localEnvFile, 'utf8')) : {}),
  ...process.env,
};
function need(key: string): string {
  const value = env[key];
  if (!value) throw new Error(`${key} is not set: start the infra with deploy/local/up`);
  return value;
}
async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return (await res.json()) as T;
}

describe('Prometheus of deploy/local', () => {
  it('loaded the alert rules', async () => {
    const body = await getJson<{ data: { groups: { rules: { name: string; type: string }[] }[] } }>(
      `${need('PROMETHEUS_URL')}/api/v1/rules`,
    );
    const loaded = body.data.groups.flatMap((g) => g.rules).filter((r) => r.type === 'alerting');
    expect(loaded.map((r) => r.name).sort()).toEqual(rules.map((r) => r.alert).sort());
  });

  it('scrapes every process of the dev and e2e stacks, itself and Jaeger', async () => {
    const url = need('PROMETHEUS_URL');
    type Target = { labels: Record<string, string>; scrapePool: string; health: string };
    const body = await getJson<{ data: { activeTargets: Target[] } }>(`${url}/api/v1/targets`);
    const targets = body.data.activeTargets;
    for (const stack of Object.keys(LOCAL_STACKS)) {
      const processes = targets
        .filter((t) => t.scrapePool === 'wayfarer' && t.labels.stack === stack)
        .map((t) => t.labels.process)
        .sort();
      expect(processes, stack).toEqual(STACK.map((p) => p.name).sort());
    }
    expect(targets.map((t) => t.scrapePool)).toEqual(
      expect.arrayContaining(['prometheus', 'jaeger']),
    );
    // a real scrape happened: Prometheus's own `up` is 1 (the first scrape may take 10 s)
    await expect
      .poll(
        async () => {
          const q = await getJson<{ data: { result: { value: [number, string] }[] } }>(
            `${url}/api/v1/query?query=${encodeURIComponent('up{job="prometheus"}')}`,
          );
          return q.data.result[0]?.value[1];
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe('1');
  }, 40_000);
});

describe('Jaeger of deploy/local', () => {
  it('takes a span over OTLP/HTTP and returns it from the query API', async () => {
    const otlp = need('OTEL_EXPORTER_OTLP_ENDPOINT');
    const query = need('JAEGER_QUERY_URL');
    const service = `deploy-test-${process.pid}-${Date.now()}`;
    const traceId = [...crypto.getRandomValues(new Uint8Array(16))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    const spanId = traceId.slice(0, 16);
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    const res = await fetch(`${otlp}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
            scopeSpans: [
              {
                scope: { name: 'deploy-test' },
                spans: [
                  {
                    traceId,
                    spanId,
                    name: 'GET /api/trips',
                    kind: 2,
                    startTimeUnixNano: String(nowNs - 5_000_000n),
                    endTimeUnixNano: String(nowNs),
                  },
                ],
              },
            ],
          },
        ],
      }),
    });
    expect(res.status).toBe(200);
    await expect
      .poll(async () => (await getJson<{ data: string[] }>(`${query}/api/services`)).data, {
        timeout: 20_000,
        interval: 300,
      })
      .toContain(service);
    const traces = await getJson<{
      data: { traceID: string; spans: { operationName: string }[] }[];
    }>(`${query}/api/traces?service=${encodeURIComponent(service)}&lookback=1h`);
    expect(traces.data.map((t) => t.traceID)).toEqual([traceId]);
    expect(traces.data[0]!.spans.map((s) => s.operationName)).toEqual(['GET /api/trips']);
  }, 30_000);
});
