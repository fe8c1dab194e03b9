import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { quietKafkaRequestQueue } from '../src/kafka-idle';

interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  scheduleCheckPendingRequests(): void;
}

const RequestQueue = createRequire(import.meta.url)(
  'kafkajs/src/network/requestQueue/index.js',
) as new (options: Record<string, unknown>) => Queue;

const logger = {
  debug: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  info: () => undefined,
};
const queue = (): Queue =>
  new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 1000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: 'test:9092',
    logger: { namespace: () => logger },
    isConnected: () => true,
  });

const made: Queue[] = [];
afterEach(() => {
  for (const q of made.splice(0))
    if (q.throttleCheckTimeoutId) clearTimeout(q.throttleCheckTimeoutId);
});

describe('kafkajs request queue, quiet when idle (service-kit kafka-idle.ts)', () => {
  it('arms no timer for an empty queue, and one for a queue with a request waiting', () => {
    quietKafkaRequestQueue();
    const idle = queue();
    made.push(idle);
    idle.scheduleCheckPendingRequests();
    expect(idle.throttleCheckTimeoutId).toBeNull();

    const waiting = queue();
    made.push(waiting);
    waiting.pending.push({ correlationId: 1 });
    waiting.scheduleCheckPendingRequests();
    expect(waiting.throttleCheckTimeoutId).not.toBeNull();
  });

  it('arms the end-of-throttle check for a throttled queue with a request waiting', () => {
    quietKafkaRequestQueue();
    const throttled = queue();
    made.push(throttled);
    throttled.throttledUntil = Date.now() + 60_000;
    throttled.pending.push({ correlationId: 2 });
    throttled.scheduleCheckPendingRequests();
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();
  });
});
