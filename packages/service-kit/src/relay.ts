import type { Kafka, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { Topic } from '@wayfarer/contracts';
import { createProducer, ensureTopics } from './kafka';

/** A relay of outbox events to Kafka (the store-specific part is `publishPending`). */
export interface OutboxRelay {
  /** Asks the relay to publish now (call after a write that enqueued events). */
  kick(): void;
  /** Publishes everything pending once; resolves with the number sent. */
  flush(): Promise<number>;
  stop(): Promise<void>;
}

export interface RelayLoopOptions {
  name: string;
  kafka: Kafka;
  logger: Logger;
  /** Topics published: created on first connect. */
  topics: readonly Topic[];
  pollIntervalMs?: number;
  /**
   * Publishes one batch of pending events with `producer` and marks them sent; returns how
   * many were sent (0 when nothing is pending). Throwing leaves them pending.
   */
  publishPending(connect: () => Promise<Producer>): Promise<number>;
}

/**
 * The loop every outbox relay shares: poll, publish, and on failure (Kafka down) back off up
 * to 5 s and rebuild the producer, so events go out once Kafka is back. Writes never wait
 * for it.
 */
export function startRelayLoop(options: RelayLoopOptions): OutboxRelay {
  const log = options.logger.child({ component: options.name });
  const poll = options.pollIntervalMs ?? 250;
  let producer: Producer | null = null;
  let stopped = false;
  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;

  async function connect(): Promise<Producer> {
    if (producer) return producer;
    await ensureTopics(options.kafka, options.topics);
    const p = createProducer(options.kafka);
    await p.connect();
    producer = p;
    log.info('connected to Kafka');
    return p;
  }

  async function drain(): Promise<number> {
    // bounded, so a store that fails to mark events sent cannot spin here
    let total = 0;
    for (let round = 0; round < 50; round++) {
      const sent = await options.publishPending(connect);
      total += sent;
      if (sent === 0) break;
    }
    return total;
  }

  function runOnce(): Promise<number> {
    running ??= drain().finally(() => {
      running = null;
    });
    return running;
  }

  function schedule(delay: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), delay);
  }

  async function tick() {
    timer = null;
    try {
      const sent = await runOnce();
      if (sent > 0) log.debug({ sent }, 'published outbox events');
      if (failures > 0) log.info({ failures }, 'outbox relay recovered');
      failures = 0;
      schedule(poll);
    } catch (err) {
      failures += 1;
      const backoff = Math.min(5000, poll * 2 ** failures);
      if (failures === 1 || failures % 10 === 0) {
        log.warn(
          { err, failures, retryInMs: backoff },
          'outbox relay could not publish; will retry',
        );
      }
      const broken = producer;
      producer = null;
      await broken?.disconnect().catch(() => undefined);
      schedule(backoff);
    }
  }

  schedule(0);
  return {
    kick() {
      if (failures === 0) schedule(0);
    },
    flush: runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
      await producer?.disconnect().catch(() => undefined);
    },
  };
}

/** Groups messages by topic for one `sendBatch`. */
export function batchByTopic(
  entries: readonly { topic: string; key: string; value: string }[],
): { topic: string; messages: { key: string; value: string }[] }[] {
  const byTopic = new Map<string, { key: string; value: string }[]>();
  for (const { topic, key, value } of entries) {
    const list = byTopic.get(topic) ?? [];
    list.push({ key, value });
    byTopic.set(topic, list);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}
