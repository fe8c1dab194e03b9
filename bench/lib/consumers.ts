/**
 * Before a lag bench measures: wait until the stack's Kafka consumers are steady, so its
 * figure is about the product's path (outbox -> Kafka -> consumer -> read model) and not about
 * a cold start. A stack's services are ready once their consumers have joined their groups
 * (service-kit `consumersJoined`), but joined is not caught up: the topics are shared by every
 * stack, test and bench on the machine, and a stack's groups (`<namespace>-<consumer>`) start
 * where they left off the last run, or at the topics' beginning the first time. Until they
 * have worked that backlog off, an event the bench publishes waits behind it on its
 * partition, and the other services' catch-up takes the cores the measured path needs.
 *
 * Steady, asked of Kafka itself (admin API, nothing of the services'):
 * - every group of the prefix that has members is `Stable` (no rebalance under way) and its
 *   members hold every partition of the topics they consume;
 * - each of those groups has committed up to the end each partition had when the wait first
 *   saw it (later events, other stacks' included, are the steady traffic the bench measures
 *   beside);
 * - both for `settleMs` in a row, with the same members.
 * For a stack's groups, which start at the topics' beginning: a group started at their end
 * (a test's `skipHistory`) commits nothing before its first event, and never counts as caught up.
 *
 * Then `warmUp`: rounds of the bench's own path until a few in a row arrive within its budget,
 * so the first measured round does not pay for a first fetch, a JIT or a pool being filled.
 */
import { AssignerProtocol, type Admin, type GroupDescription } from 'kafkajs';
import { testKafka } from '@wayfarer/test-kit';

export interface SteadyOptions {
  /** The consumer groups to wait for: every group whose id starts with this (`<namespace>-`). */
  groupPrefix: string;
  /**
   * At least this many groups of the prefix with members (a group not joined yet has none; a
   * group of a service not in this stack has none either and is left out).
   */
  minGroups?: number;
  /** Throws after this long (ms). */
  timeoutMs?: number;
  /**
   * How long the groups must stay steady with the same members (ms, default 2 s): a service's
   * consumer that joins a moment after the others shows up meanwhile.
   */
  settleMs?: number;
  /** Progress lines (default: stdout). */
  log?: (line: string) => void;
}

export interface SteadyReport {
  /** The groups waited for, with how many events each was behind at the first check. */
  groups: { groupId: string; behindAtStart: number }[];
  /** Events the groups were behind at the first check, in all. */
  backlog: number;
  /** How long the wait took (ms). */
  waitedMs: number;
}

const POLL_MS = 250;

/** Each topic's partitions a group's members hold (their decoded assignments). */
function assignedTopics(group: GroupDescription): Map<string, Set<number>> {
  const topics = new Map<string, Set<number>>();
  for (const member of group.members) {
    const decoded = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
    for (const [topic, partitions] of Object.entries(decoded?.assignment ?? {})) {
      let set = topics.get(topic);
      if (!set) topics.set(topic, (set = new Set()));
      for (const p of partitions) set.add(p);
    }
  }
  return topics;
}

interface Check {
  steady: boolean;
  why: string;
  behind: Map<string, number>;
  members: string;
}

/** One look at the groups: steady or why not, and how far behind each is. */
async function check(
  admin: Admin,
  options: SteadyOptions,
  ends: Map<string, { high: number; low: number }[]>,
): Promise<Check> {
  const listed = (await admin.listGroups()).groups
    .map((g) => g.groupId)
    .filter((id) => id.startsWith(options.groupPrefix));
  const described = listed.length > 0 ? (await admin.describeGroups(listed)).groups : [];
  const live = described.filter((g) => g.members.length > 0);
  const behind = new Map<string, number>();
  const members = live
    .flatMap((g) => g.members.map((m) => `${g.groupId}/${m.memberId}`))
    .sort()
    .join(' ');
  if (live.length < (options.minGroups ?? 1)) {
    return { steady: false, why: `${live.length} groups with members`, behind, members };
  }
  const reasons: string[] = [];
  for (const group of live) {
    if (group.state !== 'Stable') reasons.push(`${group.groupId} ${group.state}`);
    const assigned = assignedTopics(group);
    let groupBehind = 0;
    const committed = await admin.fetchOffsets({
      groupId: group.groupId,
      topics: [...assigned.keys()],
    });
    for (const [topic, partitions] of assigned) {
      let topicEnds = ends.get(topic);
      if (!topicEnds) {
        const offsets = await admin.fetchTopicOffsets(topic);
        topicEnds = [];
        for (const o of offsets)
          topicEnds[o.partition] = { high: Number(o.high), low: Number(o.low) };
        ends.set(topic, topicEnds);
      }
      if (partitions.size < topicEnds.length) {
        reasons.push(`${group.groupId}: ${partitions.size}/${topicEnds.length} of ${topic}`);
      }
      const done = committed.find((c) => c.topic === topic)?.partitions ?? [];
      topicEnds.forEach((end, partition) => {
        const offset = Number(done.find((d) => d.partition === partition)?.offset ?? -1);
        // never committed: at the partition's start (a new group reads from the beginning)
        groupBehind += Math.max(0, end.high - (offset >= 0 ? offset : end.low));
      });
    }
    behind.set(group.groupId, groupBehind);
    if (groupBehind > 0) reasons.push(`${group.groupId} ${groupBehind} behind`);
  }
  return { steady: reasons.length === 0, why: reasons.join(', '), behind, members };
}

/**
 * Waits until the consumer groups of `groupPrefix` are steady (above); prints what it waited
 * for and how long. Throws after `timeoutMs` (default 20 minutes: a first run works off the topics' whole history) with what was not.
 */
export async function waitConsumersSteady(options: SteadyOptions): Promise<SteadyReport> {
  const log = options.log ?? ((line: string) => console.log(line));
  const timeoutMs = options.timeoutMs ?? 1_200_000;
  const admin = testKafka(`bench-steady-${process.pid}`).admin();
  await admin.connect();
  const started = performance.now();
  const ends = new Map<string, { high: number; low: number }[]>();
  try {
    let first: Check | null = null;
    let steadySince: { at: number; members: string } | null = null;
    let lastSaid = 0;
    for (;;) {
      const now = await check(admin, options, ends);
      if (!first && now.behind.size > 0) first = now;
      if (!now.steady || steadySince?.members !== now.members) {
        steadySince = now.steady ? { at: performance.now(), members: now.members } : null;
      }
      if (steadySince && performance.now() - steadySince.at >= (options.settleMs ?? 2000)) {
        const groups = [...now.behind.keys()].map((groupId) => ({
          groupId,
          behindAtStart: first?.behind.get(groupId) ?? 0,
        }));
        const report = {
          groups,
          backlog: groups.reduce((sum, g) => sum + g.behindAtStart, 0),
          waitedMs: performance.now() - started,
        };
        log(
          `consumers steady after ${(report.waitedMs / 1000).toFixed(1)} s: ` +
            `${groups.length} groups of ${options.groupPrefix}*, ${report.backlog} events behind ` +
            `at first (${groups.map((g) => `${g.groupId} ${g.behindAtStart}`).join(', ')})`,
        );
        return report;
      }
      const waited = performance.now() - started;
      if (waited > timeoutMs) {
        throw new Error(
          `consumers of ${options.groupPrefix}* not steady after ${timeoutMs} ms: ${now.why}`,
        );
      }
      if (waited - lastSaid > 10_000) {
        lastSaid = waited;
        log(`waiting for the consumers of ${options.groupPrefix}*: ${now.why || 'one more check'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    await admin.disconnect();
  }
}

export interface WarmUpOptions {
  /** At least this many rounds (default 5). */
  minRounds?: number;
  /** Done once this many rounds in a row (default 5) took under `belowMs`. */
  consecutive?: number;
  belowMs: number;
  /** At most this many rounds (default 100); the bench then measures all the same, and says so. */
  maxRounds?: number;
  log?: (line: string) => void;
}

/**
 * Runs warm-up rounds (`round(i)` answers its delay in ms) until `consecutive` in a row took
 * under `belowMs` and at least `minRounds` ran; returns how many ran. A path still catching up
 * shows as rounds of seconds; one that never gets under the bound is measured after `maxRounds`
 * (the line says it was not steady).
 */
export async function warmUp(
  round: (i: number) => Promise<number>,
  options: WarmUpOptions,
): Promise<number> {
  const log = options.log ?? ((line: string) => console.log(line));
  const min = options.minRounds ?? 5;
  const consecutive = options.consecutive ?? 5;
  const max = options.maxRounds ?? 100;
  const delays: number[] = [];
  let inARow = 0;
  while (delays.length < max && (delays.length < min || inARow < consecutive)) {
    const ms = await round(delays.length);
    delays.push(ms);
    inARow = ms < options.belowMs ? inARow + 1 : 0;
  }
  const steady = inARow >= consecutive;
  log(
    `warm-up: ${delays.length} rounds, ` +
      (steady
        ? `the last ${consecutive} under ${options.belowMs} ms`
        : `NOT steady after ${max} (the last ${Math.min(consecutive, delays.length)}: ` +
          `${delays
            .slice(-consecutive)
            .map((d) => d.toFixed(0))
            .join(', ')} ms)`) +
      `; first ${delays
        .slice(0, 5)
        .map((d) => d.toFixed(0))
        .join(', ')} ms`,
  );
  return delays.length;
}
