import type { Consumer } from 'kafkajs';
import { reportDependency } from './dependencies';
import { gaugeReader } from './metrics';

/**
 * What a consumer group of this process knows of its lag, from its own fetches (no admin
 * calls to Kafka, so it still answers, and keeps growing, while Kafka is unreachable):
 *
 * - `kafka_consumer_lag{group, topic, partition}`: messages behind on each partition assigned
 *   here: its high watermark at its last fetch minus the next offset to process (during a
 *   batch, the whole batch counts as behind; kafkajs commits after each batch);
 * - `wayfarer_consumer_lag_seconds{group, topic}`: how long ago the group was last seen caught
 *   up on the topic (a fetch that started while nothing was behind). A healthy idle consumer
 *   fetches every ~100 ms, so it stays near 0; it grows while Kafka is down, while the
 *   consumer is not running, and while a backlog is being worked off.
 *
 * A group also reports Kafka in `wayfarer_dependency_up` (down when no fetch answered for
 * KAFKA_SILENT_MS).
 */
class GroupLag {
  /** Messages behind per topic and partition. */
  readonly behind = new Map<string, Map<number, number>>();
  /** When the group was last caught up, per topic (ms since the epoch). */
  readonly caughtUpAt = new Map<string, number>();
  /** When a fetch of the group last returned (ms since the epoch). */
  fetchedAt = Date.now();

  constructor(
    readonly group: string,
    readonly topics: readonly string[],
  ) {
    const now = Date.now();
    for (const topic of topics) this.caughtUpAt.set(topic, now);
  }

  setBehind(topic: string, partition: number, messages: number): void {
    let partitions = this.behind.get(topic);
    if (!partitions) this.behind.set(topic, (partitions = new Map()));
    partitions.set(partition, Math.max(0, messages));
  }

  behindOn(topic: string): number {
    let sum = 0;
    for (const n of this.behind.get(topic)?.values() ?? []) sum += n;
    return sum;
  }

  /** A fetch that started at `at` returned: topics with nothing behind were caught up then. */
  fetched(at: number): void {
    this.fetchedAt = Date.now();
    for (const topic of this.topics) {
      if (this.behindOn(topic) === 0) this.caughtUpAt.set(topic, at);
    }
  }

  /** A new assignment (rebalance): partitions no longer ours stop counting, new ones show. */
  assigned(assignment: Record<string, number[]>): void {
    for (const [topic, partitions] of this.behind) {
      const kept = new Set(assignment[topic] ?? []);
      for (const partition of partitions.keys()) {
        if (!kept.has(partition)) partitions.delete(partition);
      }
    }
    // the new ones show from now on (0 until a batch says otherwise)
    for (const [topic, partitions] of Object.entries(assignment)) {
      for (const partition of partitions) {
        if (this.behind.get(topic)?.has(partition) !== true) this.setBehind(topic, partition, 0);
      }
    }
  }
}

/** A consumer group whose fetches have gone unanswered this long counts Kafka as down. */
export const KAFKA_SILENT_MS = 10_000;

const groups = new Map<
  string,
  { lag: GroupLag; consumers: Set<Consumer>; stopCheck: () => void }
>();
let exported = false;

function exportGauges(): void {
  if (exported) return;
  exported = true;
  gaugeReader(
    {
      name: 'kafka_consumer_lag',
      help: 'Messages a consumer group is behind on a partition assigned to this process',
      labelNames: ['group', 'topic', 'partition'] as const,
    },
    () =>
      [...groups.values()].flatMap(({ lag }) =>
        [...lag.behind].flatMap(([topic, partitions]) =>
          [...partitions].map(([partition, value]) => ({
            labels: { group: lag.group, topic, partition: String(partition) },
            value,
          })),
        ),
      ),
  );
  gaugeReader(
    {
      name: 'wayfarer_consumer_lag_seconds',
      help: 'Seconds since a consumer group was last seen caught up on a topic',
      labelNames: ['group', 'topic'] as const,
    },
    () => {
      const now = Date.now();
      return [...groups.values()].flatMap(({ lag }) =>
        lag.topics.map((topic) => ({
          labels: { group: lag.group, topic },
          value: (now - (lag.caughtUpAt.get(topic) ?? now)) / 1000,
        })),
      );
    },
  );
}

/**
 * Follows a consumer's fetches and batches for the lag gauges of its group. The group's
 * figures outlive one consumer (one restarted after a crash, or started in place of one that
 * crashed for good, continues them); they go when the group's last live consumer calls the
 * returned `release` (its disconnect).
 */
export function trackConsumerLag(
  consumer: Consumer,
  group: string,
  topics: readonly string[],
): () => void {
  exportGauges();
  let entry = groups.get(group);
  if (!entry) {
    const lag = new GroupLag(group, topics);
    const stopCheck = reportDependency('kafka', () => Date.now() - lag.fetchedAt < KAFKA_SILENT_MS);
    entry = { lag, consumers: new Set(), stopCheck };
    groups.set(group, entry);
  }
  const { lag, consumers } = entry;
  consumers.add(consumer);
  let fetchStartedAt = Date.now();
  const { FETCH_START, FETCH, START_BATCH_PROCESS, END_BATCH_PROCESS, GROUP_JOIN, CRASH } =
    consumer.events;
  const listeners = [
    consumer.on(FETCH_START, () => {
      fetchStartedAt = Date.now();
    }),
    consumer.on(FETCH, () => lag.fetched(fetchStartedAt)),
    consumer.on(START_BATCH_PROCESS, ({ payload }) =>
      lag.setBehind(payload.topic, payload.partition, Number(payload.offsetLagLow) + 1),
    ),
    consumer.on(END_BATCH_PROCESS, ({ payload }) =>
      lag.setBehind(payload.topic, payload.partition, Number(payload.offsetLag)),
    ),
    consumer.on(GROUP_JOIN, ({ payload }) => lag.assigned(payload.memberAssignment)),
    // dead for good: its replacement (startConsumerInBackground) continues the group's figures
    consumer.on(CRASH, ({ payload }) => {
      if (!payload.restart) consumers.delete(consumer);
    }),
  ];
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const remove of listeners) remove();
    consumers.delete(consumer);
    if (consumers.size === 0 && groups.get(group) === entry) {
      groups.delete(group);
      entry.stopCheck();
    }
  };
}
