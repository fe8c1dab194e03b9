import type { Kafka, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { Topic } from '@wayfarer/contracts';
import { createProducer, ensureTopics } from './kafka';
import { reportDependency } from './dependencies';
import { gaugeReader } from './metrics';
import { runUntraced, startPublishSpans } from './telemetry/trace';

/**
 * How long published outbox rows and consumer markers (ids of events a consumer has applied)
 * are kept. A redelivery (a consumer restarting before committing its offset, a relay resending
 * after a crash) comes within minutes; a week is far beyond that, and as long as Kafka's default
 * retention, so a replay from the oldest offset Kafka still has is still recognised.
 */
export const OUTBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** A relay prunes at most this often. */
export const OUTBOX_PRUNE_INTERVAL_MS = 10 * 60 * 1000;
/** Rows (documents) deleted per prune statement, so a prune never holds many locks for long. */
export const OUTBOX_PRUNE_BATCH = 1000;

/** The pruning knobs every relay takes (defaults above). */
export interface PruneOptions {
  /** Keep published rows and consumer markers this long. */
  retentionMs?: number;
  /** Prune at most this often. */
  pruneIntervalMs?: number;
  /** Rows deleted per statement. */
  pruneBatchSize?: number;
}

/** A relay of outbox events to Kafka (the store-specific part is `publishPending`). */
export interface OutboxRelay {
  /** Asks the relay to publish now (call after a write that enqueued events). */
  kick(): void;
  /** Publishes everything pending once; resolves with the number sent. */
  flush(): Promise<number>;
  /**
   * Deletes published history and consumer markers older than the retention window now (the
   * loop also does it every `pruneIntervalMs`); resolves with the number removed.
   */
  prune(): Promise<number>;
  stop(): Promise<void>;
}

/** What every relay takes, whatever its store. */
export interface RelayOptions extends PruneOptions {
  kafka: Kafka;
  logger: Logger;
  /** Topics this service publishes: created on first connect. */
  topics: readonly Topic[];
  /** How often to look for pending events besides being kicked (default 250 ms). */
  pollIntervalMs?: number;
  /** Events (PostgreSQL rows, MongoDB documents) taken per round. */
  batchSize?: number;
}

export interface RelayLoopOptions extends RelayOptions {
  name: string;
  /**
   * Publishes one batch of pending events with `producer` and marks them sent; returns how
   * many were sent (0 when nothing is pending). Throwing leaves them pending.
   */
  publishPending(connect: () => Promise<Producer>): Promise<number>;
  /**
   * Deletes one bounded round (at most `batchSize` rows per kind) of history older than
   * `retentionMs`; returns how many rows it removed.
   */
  pruneOnce?(retentionMs: number, batchSize: number): Promise<number>;
  /** The outbox's backlog, read when the metrics are scraped (`outboxMetrics`). */
  backlog?: OutboxBacklogSource;
}

/** What an outbox holds unpublished. */
export interface OutboxBacklog {
  /** Events not yet published. */
  pending: number;
  /** When the oldest of them was written (null when none is pending). */
  oldestCreatedAt: Date | null;
}

/** How a relay's store reads its backlog (for the metrics). */
export interface OutboxBacklogSource {
  read(): Promise<OutboxBacklog>;
}

/** How long a scrape waits for an outbox read before it reports the last one it had. */
const BACKLOG_READ_TIMEOUT_MS = 1500;

/** The outboxes of this process (one per service; several when tests boot several). */
const outboxes = new Set<() => Promise<OutboxBacklog>>();
let outboxGauges = false;

/**
 * Exports an outbox's backlog as `wayfarer_outbox_backlog` (events waiting) and
 * `wayfarer_outbox_oldest_age_seconds` (how long the oldest has waited; 0 when none), without
 * labels (Prometheus adds the service's); several outboxes in one process add up (the age is
 * the oldest's). Read once per scrape (both gauges share the read); a read that fails or takes
 * longer than 1.5 s reports the last one, whose oldest event keeps ageing, so the age still
 * grows while the database does not answer. Returns the function that stops it.
 */
export function outboxMetrics(source: OutboxBacklogSource): () => void {
  let last: OutboxBacklog = { pending: 0, oldestCreatedAt: null };
  let reading: Promise<OutboxBacklog> | null = null;
  let readAt = 0;
  const current = (): Promise<OutboxBacklog> => {
    if (!reading && Date.now() - readAt < BACKLOG_READ_TIMEOUT_MS) return Promise.resolve(last);
    reading ??= source
      .read()
      .then(
        (backlog) => (last = backlog),
        () => last,
      )
      .finally(() => {
        reading = null;
        readAt = Date.now();
      });
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      reading,
      new Promise<OutboxBacklog>((resolve) => {
        timer = setTimeout(() => resolve(last), BACKLOG_READ_TIMEOUT_MS);
      }),
    ]).finally(() => clearTimeout(timer));
  };
  exportOutboxGauges();
  outboxes.add(current);
  return () => outboxes.delete(current);
}

function exportOutboxGauges(): void {
  if (outboxGauges) return;
  outboxGauges = true;
  const all = () => Promise.all([...outboxes].map((read) => read()));
  gaugeReader(
    { name: 'wayfarer_outbox_backlog', help: 'Outbox events not yet published to Kafka' },
    async () => (await all()).reduce((sum, b) => sum + b.pending, 0),
  );
  gaugeReader(
    {
      name: 'wayfarer_outbox_oldest_age_seconds',
      help: 'Seconds the oldest unpublished outbox event has waited (0 when none waits)',
    },
    async () => {
      const now = Date.now();
      const ages = (await all()).map((b) =>
        b.oldestCreatedAt ? (now - b.oldestCreatedAt.getTime()) / 1000 : 0,
      );
      return Math.max(0, ...ages);
    },
  );
}

/** Bounded prune rounds per run: a backlog is worked off over several runs, never in one go. */
const PRUNE_ROUNDS = 10;

/**
 * The loop every outbox relay shares: poll, publish, and on failure (Kafka down) back off up
 * to 5 s and rebuild the producer, so events go out once Kafka is back. Writes never wait
 * for it. After a successful round it prunes old history, at most every `pruneIntervalMs`.
 */
export function startRelayLoop(options: RelayLoopOptions): OutboxRelay {
  const log = options.logger.child({ component: options.name });
  const poll = options.pollIntervalMs ?? 250;
  let producer: Producer | null = null;
  let stopped = false;
  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  const pruneEvery = options.pruneIntervalMs ?? OUTBOX_PRUNE_INTERVAL_MS;
  const retention = options.retentionMs ?? OUTBOX_RETENTION_MS;
  const pruneBatch = options.pruneBatchSize ?? OUTBOX_PRUNE_BATCH;
  let lastPrune = Number.NEGATIVE_INFINITY;
  let pruning: Promise<number> | null = null;
  /** Whether the last connect or send reached Kafka (`wayfarer_dependency_up`). */
  let kafkaOk = true;

  async function connect(): Promise<Producer> {
    if (producer) return producer;
    await ensureTopics(options.kafka, options.topics);
    const p = createProducer(options.kafka);
    await p.connect();
    producer = p;
    kafkaOk = true;
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

  /**
   * One drain at a time. A call while one is in flight (a kick after a commit, a flush) marks
   * it to drain again when done: its reads may have been made before that commit, and the
   * events would otherwise wait for the next poll (up to `pollIntervalMs`, measured as the
   * tail of a friend's new trip reaching social: bench/social/new-trip-lag.bench.ts).
   */
  let again = false;
  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        total += await drain();
      } while (again && !stopped);
      return total;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  async function pruneRounds(): Promise<number> {
    let total = 0;
    for (let round = 0; round < PRUNE_ROUNDS && options.pruneOnce; round++) {
      const removed = await options.pruneOnce(retention, pruneBatch);
      total += removed;
      if (removed === 0) break;
    }
    if (total > 0) log.info({ removed: total }, 'pruned old outbox history');
    return total;
  }

  function prune(): Promise<number> {
    pruning ??= pruneRounds().finally(() => {
      pruning = null;
    });
    return pruning;
  }

  async function pruneIfDue() {
    if (!options.pruneOnce || pruning || Date.now() - lastPrune < pruneEvery) return;
    lastPrune = Date.now();
    // history is not urgent: a failure waits for the next interval
    await prune().catch((err: unknown) => log.warn({ err }, 'outbox prune failed'));
  }

  /** When the pending timer fires: a sooner one (a kick's) is never put off by a later one. */
  let timerAt = 0;
  function schedule(delay: number) {
    if (stopped) return;
    const at = Date.now() + delay;
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    // outside the request that kicked it: publishing continues each event's own trace
    timer = setTimeout(() => void runUntraced(tick), delay);
  }

  async function tick() {
    timer = null;
    try {
      const sent = await runOnce();
      if (sent > 0) kafkaOk = true;
      if (sent > 0) log.debug({ sent }, 'published outbox events');
      if (failures > 0) log.info({ failures }, 'outbox relay recovered');
      failures = 0;
      void pruneIfDue(); // in the background: publishing never waits for it
      schedule(poll);
    } catch (err) {
      failures += 1;
      if (isKafkaError(err)) kafkaOk = false;
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

  const stopMetrics = options.backlog ? outboxMetrics(options.backlog) : null;
  const stopKafkaCheck = reportDependency('kafka', () => kafkaOk);
  schedule(0);
  return {
    kick() {
      if (failures === 0) schedule(0);
    },
    flush: () => runUntraced(runOnce),
    prune: () => runUntraced(prune),
    async stop() {
      stopped = true;
      stopMetrics?.();
      stopKafkaCheck();
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
      await pruning?.catch(() => undefined);
      await producer?.disconnect().catch(() => undefined);
    },
  };
}

/** An error of kafkajs (a broker unreachable, a send refused), not of the outbox's store. */
const isKafkaError = (err: unknown) =>
  err instanceof Error && (err.name.startsWith('KafkaJS') || err.message.includes('KafkaJS'));

/** An event as both outboxes store it. */
export interface PendingEvent {
  topic: string;
  key: string;
  envelope: unknown;
  /** The W3C trace context of the request that wrote it (telemetry/trace.ts), if traced. */
  traceparent?: string | null;
}

/**
 * Sends `events` with one `sendBatch` (acknowledged by all in-sync replicas), grouped by topic,
 * in order within each topic. Does nothing for an empty list (and does not connect). An event
 * stored with a trace context is sent under a producer span of that trace, whose `traceparent`
 * goes with it as a header (`startPublishSpans`).
 */
export async function sendEvents(
  connect: () => Promise<Producer>,
  events: readonly PendingEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const spans = startPublishSpans(events);
  const byTopic = new Map<
    string,
    { key: string; value: string; headers?: Record<string, string> }[]
  >();
  events.forEach(({ topic, key, envelope }, i) => {
    const list = byTopic.get(topic) ?? [];
    list.push({ key, value: JSON.stringify(envelope), headers: spans.headers[i] });
    byTopic.set(topic, list);
  });
  try {
    const producer = await connect();
    await producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    });
  } catch (err) {
    spans.end(err);
    throw err;
  }
  spans.end();
}
