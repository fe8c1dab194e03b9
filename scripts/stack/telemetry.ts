import { existsSync, readFileSync } from 'node:fs';
import { localEnvFile, parseEnvFile } from '@wayfarer/test-kit';

/**
 * Node's arguments for a process of the stack: tsx for the sources, then service-kit's tracing
 * preload (`@wayfarer/service-kit/telemetry`: a no-op unless an OTLP endpoint is set), which
 * must load before the entry so its module hooks see pg, mongodb, kafkajs, ioredis...
 */
export const NODE_ARGS = ['--import', 'tsx', '--import', '@wayfarer/service-kit/telemetry'];

const OTEL_KEYS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL'] as const;

/**
 * Where the stack's processes send their traces: the caller's OTEL_* env when it sets an
 * endpoint, else the Jaeger of deploy/local as its env file names it (written by `up` when
 * Jaeger runs); nothing (tracing off) when neither has one. Spans are exported every second
 * (OTEL_BSP_SCHEDULE_DELAY, unless set), so a trace is in Jaeger soon after the request.
 */
export function telemetryEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const fromFile =
    !env.OTEL_EXPORTER_OTLP_ENDPOINT && existsSync(localEnvFile)
      ? parseEnvFile(readFileSync(localEnvFile, 'utf8'))
      : {};
  const out: Record<string, string> = {};
  for (const key of OTEL_KEYS) {
    const value = env[key] ?? fromFile[key];
    if (value) out[key] = value;
  }
  if (out.OTEL_EXPORTER_OTLP_ENDPOINT) {
    out.OTEL_BSP_SCHEDULE_DELAY = env.OTEL_BSP_SCHEDULE_DELAY ?? '1000';
  }
  return out;
}
