import { createRequire, register, syncBuiltinESMExports } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { SocketIoInstrumentation } from '@opentelemetry/instrumentation-socket.io';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { IncomingMessage } from 'node:http';
import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { isUntracedUrl, REQUEST_ID_ATTRIBUTE, serviceNameOf } from './config';
import { doorRatioOf, doorSampler, tracedAtDoor } from './sampling';
import { setTelemetryShutdown } from './state';

/**
 * Starts the OpenTelemetry SDK for this process (called by the preload, `register.ts`, only
 * when an OTLP endpoint is set):
 *
 * - import-in-the-middle's loader hook, told to wrap only the modules an instrumentation asks
 *   for (`createAddHookMessageChannel`), so the ESM imports of pg, mongodb, ioredis, kafkajs
 *   and socket.io are patched (require-in-the-middle covers their `require`s);
 * - the instrumentations: incoming and outgoing HTTP (`http`: server spans, MinIO calls),
 *   undici (the gateway's upstream calls), Fastify (`@fastify/otel`, registered on every
 *   Fastify instance as it is made: a request span with the route pattern, and the handler's),
 *   pg, mongodb, ioredis, kafkajs (a consumer span per message, continuing the trace from its
 *   `traceparent` header) and socket.io. Database and Redis spans only inside a trace
 *   (`requireParentSpan`): the pollers (outbox relays, revocation cache, heartbeats) do not
 *   make a root trace every few hundred milliseconds; probes and scrapes are not traced;
 * - the sampling decision at the door (`sampling.ts`): an incoming request's `traceparent`
 *   flag, else the ratio of `OTEL_TRACES_SAMPLER`/`_ARG` (default `parentbased_always_on`),
 *   decides before the http instrumentation does anything; a request not traced makes no
 *   span anywhere (tracing suppressed below it), and outgoing http and undici calls outside a
 *   trace are skipped; the SDK's sampler (`doorSampler`) records what the door admitted;
 * - the exporter and batch processor from the standard env (`OTEL_EXPORTER_OTLP_*`, OTLP over
 *   HTTP/protobuf by default; `OTEL_BSP_*`). No OpenTelemetry metrics or logs: metrics are
 *   Prometheus's (`metrics.ts`), logs stay pino lines on stdout.
 *
 * The service name is `OTEL_SERVICE_NAME`, else the entry's package (`serviceNameOf`).
 */
export async function startTracing(): Promise<void> {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  // the sampling decision, once, at the door (`sampling.ts`): a request not traced is ignored
  // by the http instrumentation (no span, tracing suppressed below it)
  const ratio = doorRatioOf(process.env);
  const instrumentations = {
    http: () => httpInstrumentationBehindDoor(ratio),
    undici: () =>
      new UndiciInstrumentation({ requireParentforSpans: true, ignoreRequestHook: outsideTrace }),
    fastify: () =>
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        ignorePaths: (route) => isUntracedUrl(route.url),
        // the request span alone (with its route): a span per hook, or for the handler within
        // it, would cost more per request than it tells
        instrumentHooks: false,
        instrumentHandler: false,
        // the request id of the access log and of every service's log lines (x-request-id):
        // from a log line to its trace (Jaeger: tags {"wayfarer.request_id":"..."})
        requestHook: (span, request) => span.setAttribute(REQUEST_ID_ATTRIBUTE, request.id),
      }),
    pg: () => new PgInstrumentation({ requireParentSpan: true }),
    mongodb: () => new MongoDBInstrumentation({ requireParentSpan: true }),
    ioredis: () => new IORedisInstrumentation({ requireParentSpan: true }),
    kafkajs: () => new KafkaJsInstrumentation(),
    'socket.io': () => new SocketIoInstrumentation(),
  };
  // OTEL_NODE_DISABLED_INSTRUMENTATIONS=fastify,ioredis (the names above) leaves some out
  const disabled = new Set(
    (process.env.OTEL_NODE_DISABLED_INSTRUMENTATIONS ?? '').split(',').map((n) => n.trim()),
  );
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ? undefined : serviceNameOf(process.argv[1]),
    metricReaders: [],
    logRecordProcessors: [],
    sampler: doorSampler(ratio),
    instrumentations: Object.entries(instrumentations)
      .filter(([name]) => !disabled.has(name))
      .map(([, make]) => make()),
  });
  sdk.start();
  // http and https patched now, through require, and their ESM namespaces synced with that:
  // else a module importing them (minio) after a CommonJS module required them (fastify,
  // mongodb) gets the unpatched functions, and its calls make no spans
  const require = createRequire(import.meta.url);
  require('node:http');
  require('node:https');
  syncBuiltinESMExports();
  setTelemetryShutdown(() => sdk.shutdown());
  // the loader has the names of every module to wrap before the entry's imports are resolved
  await waitForAllMessagesAcknowledged();
}

/**
 * An outgoing call outside any trace (an ignored request's, a poller's) makes no span and
 * carries no context: skipped before the instrumentations' per-call work.
 */
function outsideTrace(): boolean {
  const parent = trace.getSpanContext(context.active());
  return !parent || !trace.isSpanContextValid(parent);
}

/**
 * The http instrumentation with the door in front (`withDoor`): one draw per request
 * (`random`, in [0, 1)) for a request without a `traceparent`. With the door in front, a
 * request reaching the instrumentation was admitted already, so its own ignore hook lets it
 * through (drawing again made 10% of 10%).
 */
export function httpInstrumentationBehindDoor(
  ratio: number,
  random: () => number = Math.random,
): HttpInstrumentation {
  const untraced = (req: IncomingMessage) =>
    isUntracedUrl(req.url) || !tracedAtDoor(req.headers.traceparent, ratio, random);
  let doorInFront = false;
  const http = new HttpInstrumentation({
    ignoreIncomingRequestHook: (req) => !doorInFront && untraced(req),
    ignoreOutgoingRequestHook: outsideTrace,
    requireParentforOutgoingSpans: true,
  });
  doorInFront = withDoor(http, untraced);
  return http;
}

type Emit = (this: unknown, event: string, ...args: unknown[]) => boolean;

/**
 * The http instrumentation with the door in front of its server side: a request the door does
 * not trace goes straight to the server's own `emit`, under one context with tracing
 * suppressed made at start, instead of the instrumentation's path for an ignored request (a
 * context made per request, the request and the response bound to it: every listener added
 * to either then wrapped; 4% of the traced gateway's CPU at 10% sampled). Its listeners run in
 * the context their emitter's resource was made in: the response's, where it is ended (in the
 * request's own context, or under an upstream socket's made untraced: the gateway's
 * `upstream-socket.ts`). A traced request takes the instrumentation's path as it is.
 *
 * `_incomingRequestFunction` is the instrumentation's own (internal) maker of the patched
 * `emit`, taken before `http` is patched; were it gone in another version, its
 * `ignoreIncomingRequestHook` (the same door) still applies. True when the door is in front
 * (the hook must then let every request through: each was drawn for once, here).
 */
function withDoor(
  instrumentation: HttpInstrumentation,
  untraced: (req: IncomingMessage) => boolean,
): boolean {
  const internals = instrumentation as unknown as {
    _incomingRequestFunction?: (component: string, original: Emit) => Emit;
  };
  const patch = internals._incomingRequestFunction;
  if (typeof patch !== 'function') return false;
  const suppressed = suppressTracing(ROOT_CONTEXT);
  internals._incomingRequestFunction = (component, original) => {
    const instrumented = patch.call(instrumentation, component, original);
    return function emit(this: unknown, event: string, ...args: unknown[]): boolean {
      if (event === 'request' && untraced(args[0] as IncomingMessage)) {
        return context.with(suppressed, original, this, event, ...args);
      }
      return instrumented.apply(this, [event, ...args]);
    };
  };
  return true;
}
