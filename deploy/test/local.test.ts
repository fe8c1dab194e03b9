import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// Static checks of deploy/local (no server is started here).
const local = join(dirname(fileURLToPath(import.meta.url)), '../local');

describe('deploy/local', () => {
  it.each(['up', 'status', 'down'])('%s is an executable bash script that parses', (verb) => {
    const file = join(local, verb);
    accessSync(file, constants.X_OK);
    expect(readFileSync(file, 'utf8')).toMatch(/^#!\/usr\/bin\/env bash\n/);
    expect(readFileSync(file, 'utf8')).toContain('set -euo pipefail');
    execFileSync('bash', ['-n', file]);
  });

  it('rejects an unknown component before doing anything', () => {
    const r = spawnSync(join(local, 'up'), ['nosuch'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown component "nosuch"');
  });

  it('uses the agreed default ports', () => {
    const common = readFileSync(join(local, 'lib/common.sh'), 'utf8');
    for (const [name, port] of [
      ['WAYFARER_PG_PORT', 55432],
      ['WAYFARER_REDIS_PORT', 56379],
      ['WAYFARER_KAFKA_PORT', 59092],
      ['WAYFARER_KAFKA_CONTROLLER_PORT', 59093],
      ['WAYFARER_MINIO_PORT', 59000],
      ['WAYFARER_MINIO_CONSOLE_PORT', 59001],
      ['WAYFARER_MONGO_PORT', 57017],
      ['WAYFARER_JAEGER_OTLP_GRPC_PORT', 54317],
      ['WAYFARER_JAEGER_OTLP_HTTP_PORT', 54318],
      ['WAYFARER_JAEGER_QUERY_PORT', 56686],
      ['WAYFARER_JAEGER_QUERY_GRPC_PORT', 56685],
      ['WAYFARER_JAEGER_METRICS_PORT', 58888],
      ['WAYFARER_PROMETHEUS_PORT', 59090],
    ] as const) {
      expect(common).toContain(`\${${name}:-${port}}`);
    }
  });

  it("runs the Kubernetes tracing component's Jaeger configuration on loopback ports only", () => {
    const script = `source ${join(local, 'lib/common.sh')}; jaeger_config`;
    const config = parse(
      execFileSync('bash', ['-c', script], {
        encoding: 'utf8',
        env: { ...process.env, WAYFARER_JAEGER_QUERY_PORT: '51234' },
      }),
    ) as {
      receivers: { otlp: { protocols: Record<string, { endpoint: string }> } };
      extensions: { jaeger_query: { http: { endpoint: string }; grpc: { endpoint: string } } };
      service: {
        telemetry: { metrics: { readers: { pull: { exporter: { prometheus: object } } }[] } };
      };
    };
    expect(config.receivers.otlp.protocols.grpc!.endpoint).toBe('127.0.0.1:54317');
    expect(config.receivers.otlp.protocols.http!.endpoint).toBe('127.0.0.1:54318');
    expect(config.extensions.jaeger_query.http.endpoint).toBe('127.0.0.1:51234');
    expect(config.extensions.jaeger_query.grpc.endpoint).toBe('127.0.0.1:56685');
    expect(config.service.telemetry.metrics.readers[0]!.pull.exporter.prometheus).toEqual({
      host: '127.0.0.1',
      port: 58888,
    });
  });
});
