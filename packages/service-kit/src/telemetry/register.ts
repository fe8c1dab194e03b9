/**
 * The tracing preload of every process (services and the gateway): load it before the entry,
 *
 *   node --import tsx --import @wayfarer/service-kit/telemetry src/main.ts   (sources, tsx)
 *   node --import @wayfarer/service-kit/telemetry dist/main.js              (compiled)
 *
 * so its module hooks are in place before the entry's imports (pg, mongodb, ioredis, kafkajs,
 * socket.io) are loaded: ESM links a whole module graph before running any of it, so starting
 * the SDK from inside `main.ts` would be too late for them.
 *
 * Off (nothing loaded, nothing hooked: it costs one env lookup) unless an OTLP endpoint is set
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); the rest is the
 * standard OpenTelemetry env (`OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`/`_ARG`,
 * `OTEL_SDK_DISABLED`, `OTEL_BSP_*`). See `sdk.ts`.
 */
import { tracingConfigured } from './config';

if (tracingConfigured(process.env)) {
  const { startTracing } = await import('./sdk');
  await startTracing();
}
