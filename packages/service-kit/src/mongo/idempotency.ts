import type { Collection, Document, ObjectId } from 'mongodb';
import type { Logger } from 'pino';
import { IdempotencyLimits } from '@wayfarer/contracts';
import {
  replayOf,
  type Created,
  type IdempotencyClaim,
  type IdempotentOutcome,
  type RecordedAnswer,
} from '../idempotency';
import { OUTBOX_PRUNE_BATCH, OUTBOX_PRUNE_INTERVAL_MS } from '../relay';

/**
 * A key and its create's answer, kept IN the document the create wrote (no multi-document
 * transactions here): written by the same single-document write as the create, so it exists if
 * and only if the create happened. One per document (a plain subdocument, never an array: the
 * local mongo-java-server enforces a unique index on a subdocument's field but not across
 * array elements).
 */
export interface IdempotencyRecord {
  /** `[owner, key]` as JSON: what the unique index is on. */
  scope: string;
  fingerprint: string;
  status: number;
  body: string;
  at: Date;
}

/** A document that may carry the record of the create that wrote it. */
export interface WithIdempotency {
  idempotency?: IdempotencyRecord;
}

/** The unique index on `idempotency.scope` (sparse: documents without a key are not in it). */
export const IDEMPOTENCY_INDEX = 'idempotency_scope';
const IDEMPOTENCY_AT_INDEX = 'idempotency_at';
const DUPLICATE_KEY = 11000;

/**
 * What a create's document gets: `{ idempotency }` for a claim (`{ [field]: record }` for a
 * store with another `field`), `{}` without one.
 */
export type IdempotencyStamp<R extends Document = WithIdempotency> = (answer: RecordedAnswer) => R;

export interface MongoIdempotencyOptions {
  /**
   * The document field holding the record (default `idempotency`). A document written by two
   * kinds of keyed request (a trip's create, and the photos later added to it) keeps each
   * kind's latest record in a field of its own, each with its own unique index.
   */
  field?: string;
}

/**
 * A filter fragment matching only documents that do not hold the claim's key (`{}` without a
 * claim): for a create that updates an existing document (journal's upsert of a destination's
 * entry), so that a second write with the same key matches nothing, and its upsert's insert is
 * refused (duplicate `_id`) instead of writing again.
 */
export type NotHoldingKey = Document;

/** A projection fragment leaving the record out of reads (it holds a copy of an answer). */
export const WITHOUT_IDEMPOTENCY = { idempotency: 0 } as const;

/**
 * The MongoDB variant of idempotent creates, on one collection whose documents carry their
 * create's key (`WithIdempotency`, or `options.field`). `init()` makes the unique index; `run`
 * does the rest. `R` is what a stamp adds to a document (`{ [field]: IdempotencyRecord }`).
 */
export class MongoIdempotency<R extends Document = WithIdempotency> {
  /** The document field holding the record. */
  readonly field: string;

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any collection of creates
    readonly collection: Collection<any>,
    private readonly now: () => Date = () => new Date(),
    options: MongoIdempotencyOptions = {},
  ) {
    this.field = options.field ?? 'idempotency';
  }

  private get docs(): Collection<Document> {
    return this.collection as Collection<Document>;
  }

  async init(): Promise<void> {
    // the default field keeps its indexes' first names
    const name = (index: string) =>
      this.field === 'idempotency' ? index : index.replace('idempotency', this.field);
    await this.docs.createIndex(
      { [`${this.field}.scope`]: 1 },
      { name: name(IDEMPOTENCY_INDEX), unique: true, sparse: true },
    );
    await this.docs.createIndex(
      { [`${this.field}.at`]: 1 },
      { name: name(IDEMPOTENCY_AT_INDEX), sparse: true },
    );
  }

  private cutoff(): Date {
    return new Date(this.now().getTime() - IdempotencyLimits.retentionMs);
  }

  /** The record to write with the create's document. */
  record(claim: IdempotencyClaim, answer: RecordedAnswer): IdempotencyRecord {
    return {
      scope: scopeOf(claim),
      fingerprint: claim.fingerprint,
      status: answer.status,
      body: answer.body,
      at: this.now(),
    };
  }

  /**
   * The answer recorded for `claim`'s key, or null when there is none (a 422 when it was
   * recorded for another request). An expired record is taken off its document and counts as
   * none, so the key can be used again before the pruner gets to it.
   */
  async find(claim: IdempotencyClaim): Promise<RecordedAnswer | null> {
    const scope = scopeOf(claim);
    const field = this.field;
    const doc = await this.docs.findOne(
      { [`${field}.scope`]: scope },
      { projection: { [field]: 1 } },
    );
    const record = (doc?.[field] ?? null) as IdempotencyRecord | null;
    if (!record) return null;
    if (record.at < this.cutoff()) {
      await this.docs.updateOne(
        { _id: doc!._id, [`${field}.scope`]: scope, [`${field}.at`]: record.at },
        { $unset: { [field]: '' } },
      );
      return null;
    }
    return replayOf(record, claim);
  }

  /**
   * Runs a create whose single-document write carries `stamp(answer)` and answers a retry with
   * the first answer:
   *
   * 1. a key already recorded is answered from its record (the same status and body; a 422 for
   *    another fingerprint), and nothing runs;
   * 2. otherwise `create` runs and writes its document with the stamp. If another request with
   *    the same key wrote first (in flight at the same time), the unique index refuses this
   *    write (duplicate key): `create` must undo whatever it did before the write (trips
   *    removes the photos it stored), and the first request's answer is replayed. Any other
   *    duplicate-key error (an upsert's `_id` race) is `create`'s own to handle or throw.
   *
   * A create that updates a document rather than inserting one filters its write with
   * `notHoldingKey` (and upserts): a same-key write that lost the race then matches nothing, its
   * insert is refused on `_id`, and it is answered like the above.
   *
   * So concurrent same-key requests each run, and exactly one writes; no 409. A create that
   * throws records nothing: a retry runs again. Without a claim the stamp and filter are empty.
   */
  async run<T>(
    claim: IdempotencyClaim | null,
    create: (stamp: IdempotencyStamp<R>, notHoldingKey: NotHoldingKey) => Promise<Created<T>>,
  ): Promise<IdempotentOutcome<T>> {
    if (claim === null) return { replayed: false, ...(await create(() => ({}) as R, {})) };
    const first = await this.find(claim);
    if (first) return { replayed: true, answer: first };
    try {
      const stamp = (answer: RecordedAnswer) =>
        ({ [this.field]: this.record(claim, answer) }) as unknown as R;
      const made = await create(stamp, {
        [`${this.field}.scope`]: { $ne: scopeOf(claim) },
      });
      return { replayed: false, ...made };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const winner = await this.find(claim);
      if (winner) return { replayed: true, answer: winner };
      throw err;
    }
  }

  /**
   * Takes the records older than `IdempotencyLimits.retentionMs` off up to `batchSize`
   * documents (the documents stay); returns how many.
   */
  async prune(batchSize: number = OUTBOX_PRUNE_BATCH): Promise<number> {
    const old = { [`${this.field}.at`]: { $lt: this.cutoff() } };
    const ids = await this.docs
      .find(old, { projection: { _id: 1 } })
      .limit(batchSize)
      .toArray();
    if (ids.length === 0) return 0;
    const result = await this.docs.updateMany(
      { _id: { $in: ids.map((d) => d._id as ObjectId) /* any _id type */ }, ...old },
      { $unset: { [this.field]: '' } },
    );
    return result.modifiedCount;
  }
}

/**
 * `[owner, key]` as JSON: no owner and key can spill into each other. What a key is recorded
 * under (`IdempotencyRecord.scope`), also by stores that keep their keys elsewhere (trips'
 * imports).
 */
export function idempotencyScope(claim: Pick<IdempotencyClaim, 'owner' | 'key'>): string {
  return JSON.stringify([claim.owner, claim.key]);
}

const scopeOf = idempotencyScope;

function isDuplicateKey(err: unknown): boolean {
  return (err as { code?: number } | null)?.code === DUPLICATE_KEY;
}

/** Bounded prune rounds per run, as the outbox relay's. */
const PRUNE_ROUNDS = 10;

/**
 * Prunes the expired records of these collections now and every `intervalMs` (default the
 * outbox relay's 10 minutes), in bounded batches, in the background; a failure waits for the
 * next run. `stop()` ends it (and waits for a run in progress).
 */
export function startIdempotencyPruner(options: {
  stores: readonly MongoIdempotency<Document>[];
  logger: Logger;
  intervalMs?: number;
}): { runOnce(): Promise<number>; stop(): Promise<void> } {
  const log = options.logger.child({ component: 'idempotency-pruner' });
  let running: Promise<number> | null = null;
  const runOnce = (): Promise<number> => {
    running ??= (async () => {
      let total = 0;
      for (const store of options.stores) {
        for (let round = 0; round < PRUNE_ROUNDS; round++) {
          const removed = await store.prune();
          total += removed;
          if (removed < OUTBOX_PRUNE_BATCH) break;
        }
      }
      if (total > 0) log.info({ removed: total }, 'pruned expired idempotency keys');
      return total;
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const tick = () =>
    void runOnce().catch((err: unknown) => log.warn({ err }, 'idempotency key prune failed'));
  const timer = setInterval(tick, options.intervalMs ?? OUTBOX_PRUNE_INTERVAL_MS);
  timer.unref();
  tick();
  return {
    runOnce,
    async stop() {
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
