import { afterEach, describe, expect, it, vi } from 'vitest';
import { testInfra } from '@wayfarer/test-kit';
import { createKafka } from '../src/kafka';
import { createLogger } from '../src/logger';
import { startRelayLoop, type OutboxRelay } from '../src/relay';

/**
 * The relay loop's scheduling (unit: its store seam `publishPending` is a list in memory; it
 * never connects to Kafka). A kick that lands while a drain is in flight must not wait for the
 * next poll: that drain may have read the outbox before the kicking write committed.
 */
describe('relay loop', () => {
  const logger = createLogger('kit-relay-loop-test', 'silent');
  const kafka = createKafka({
    clientId: 'kit-relay-loop',
    brokers: testInfra().kafkaBrokers,
    logger,
  });
  let relay: OutboxRelay | undefined;

  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
  });

  it('a kick during a drain is not put off by that drain rescheduling its poll', async () => {
    const pending: string[] = [];
    const published: string[] = [];
    let reads = 0;
    let releaseSlowRead!: () => void;
    const slowRead = new Promise<void>((resolve) => (releaseSlowRead = resolve));
    let inSlowRead!: () => void;
    const slowReadStarted = new Promise<void>((resolve) => (inSlowRead = resolve));

    relay = startRelayLoop({
      name: 'test-relay',
      kafka,
      logger,
      topics: [],
      pollIntervalMs: 60_000, // a missed kick would wait this long
      publishPending: async () => {
        reads += 1;
        const batch = pending.splice(0); // what was committed when the read was made
        if (reads === 2) {
          // the kicked drain: its read is done, the answer is slow to come back
          inSlowRead();
          await slowRead;
        }
        published.push(...batch);
        return batch.length;
      },
    });
    // the first drain (at start) finds nothing
    await vi.waitFor(() => expect(reads).toBe(1));

    relay.kick(); // drain 2 reads (nothing) and hangs
    await slowReadStarted;
    pending.push('event-1'); // a write commits after that read
    relay.kick(); // ... and kicks while drain 2 is in flight
    releaseSlowRead();

    await vi.waitFor(() => expect(published).toEqual(['event-1']), { timeout: 5000 });
  });

  it('a flush during a drain that read before the write resolves once that write is sent', async () => {
    const pending: string[] = [];
    const published: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inRead!: () => void;
    const readStarted = new Promise<void>((resolve) => (inRead = resolve));
    let first = true;
    relay = startRelayLoop({
      name: 'test-relay',
      kafka,
      logger,
      topics: [],
      pollIntervalMs: 60_000,
      publishPending: async () => {
        const batch = pending.splice(0);
        if (first) {
          // the drain at start: its read is done (nothing), the answer is slow to come back
          first = false;
          inRead();
          await gate;
        }
        published.push(...batch);
        return batch.length;
      },
    });
    await readStarted;
    pending.push('event-1'); // committed after that read
    const flushed = relay.flush(); // joins the drain in flight
    release();
    await flushed;
    expect(published).toEqual(['event-1']);
  });
});
