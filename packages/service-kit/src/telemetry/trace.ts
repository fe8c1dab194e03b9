import { randomFillSync } from 'node:crypto';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
} from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { REQUEST_ID_ATTRIBUTE } from './config';

/**
 * How a trace crosses the outbox (the API only: with tracing off every call here is a no-op).
 *
 * A request that writes an event stores the W3C `traceparent` of its active span with the event
 * (`outbox.traceparent` in PostgreSQL, the entry's `traceparent` in MongoDB). The relay, which
 * runs outside any request and untraced (`runUntraced`), publishes each event under a producer
 * span that continues that stored context (`startPublishSpans`) and sends the span's
 * `traceparent` as a Kafka header; the consumers' kafkajs instrumentation starts its `process`
 * span from that header, so the consumers' work is part of the request's trace.
 */

export const TRACEPARENT_HEADER = 'traceparent';

const tracer = trace.getTracer('@wayfarer/service-kit');

/** The `traceparent` of the active span, to store with an event; undefined without one. */
export function activeTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier[TRACEPARENT_HEADER];
}

/**
 * Runs `fn` outside any trace, with tracing suppressed: background loops (the outbox relay)
 * neither join the request that woke them nor make spans of their own polling. Spans started
 * with an explicit parent (`startPublishSpans`) are still recorded.
 */
export function runUntraced<T>(fn: () => T): T {
  return context.with(suppressTracing(ROOT_CONTEXT), fn);
}

/** An event about to be published, as far as its span is concerned. */
export interface TracedEvent {
  topic: string;
  key: string;
  traceparent?: string | null;
}

/** Producer spans of one batch of events being published. */
export interface PublishSpans {
  /** The Kafka headers of each event (its span's `traceparent`), undefined for untraced ones. */
  headers: (Record<string, string> | undefined)[];
  /** Ends every span, marked failed when `error` is given. */
  end(error?: unknown): void;
}

const NO_SPANS: PublishSpans = { headers: [], end: () => undefined };

/**
 * Starts one producer span (`send <topic>`) per event that carries a stored `traceparent`, as
 * a child of that context, and returns the headers that continue each span on the consumer's
 * side. Events without a context are sent without a header.
 */
export function startPublishSpans(events: readonly TracedEvent[]): PublishSpans {
  if (!events.some((e) => e.traceparent)) return NO_SPANS;
  const spans: Span[] = [];
  const headers = events.map(({ topic, key, traceparent }) => {
    if (!traceparent) return undefined;
    const parent = propagation.extract(ROOT_CONTEXT, { [TRACEPARENT_HEADER]: traceparent });
    const span = tracer.startSpan(
      `send ${topic}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'send',
          'messaging.operation.name': 'send',
          'messaging.destination.name': topic,
          'messaging.kafka.message.key': key,
          'wayfarer.outbox': true,
        },
      },
      parent,
    );
    spans.push(span);
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(parent, span), carrier);
    return carrier;
  });
  return {
    headers,
    end(error) {
      for (const span of spans) {
        if (error !== undefined) {
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: error instanceof Error ? error.message : String(error),
          });
        }
        span.end();
      }
    },
  };
}

/**
 * Sets the request id (`x-request-id`) on the active span: the server span of a request
 * answered outside Fastify (the gateway's hot path), where `@fastify/otel`'s request span
 * would carry it. Nothing when tracing is off or the request is not sampled.
 */
export function tagRequestSpan(requestId: string): void {
  const span = trace.getActiveSpan();
  if (span?.isRecording()) span.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
}

/**
 * Whether the active context is inside a trace (a valid span context, sampled or not): a call
 * made here carries that trace's context. False outside any request, and in a request the
 * door did not trace (`sampling.ts`: no span at all).
 */
export function inTrace(): boolean {
  const parent = trace.getSpanContext(context.active());
  return parent !== undefined && trace.isSpanContextValid(parent);
}

/** Random bytes drawn 256 ids at a time (one `randomFillSync` for 256 requests). */
const idPool = Buffer.alloc(24 * 256);
let idAt = idPool.length;

/**
 * A fresh `traceparent` with the sampled flag off (`00-<trace id>-<span id>-00`): sent
 * upstream with a request the door did not trace, so the services behind (parent-based) skip
 * it at their own door instead of drawing a root decision of their own. Random ids from a
 * pooled buffer (24 bytes a call).
 */
export function notSampledTraceparent(): string {
  if (idAt === idPool.length) {
    randomFillSync(idPool);
    idAt = 0;
  }
  const at = idAt;
  idAt += 24;
  // never an all-zero id (invalid): the lowest bit of each id's last byte set
  idPool[at + 15] = idPool[at + 15]! | 1;
  idPool[at + 23] = idPool[at + 23]! | 1;
  const hex = idPool.toString('hex', at, at + 24);
  return `00-${hex.slice(0, 32)}-${hex.slice(32)}-00`;
}
