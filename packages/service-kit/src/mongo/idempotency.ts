import { AsyncLocalStorage } from 'node:async_hooks';
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
import { startPeriodic } from '../periodic';
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
 * create's key (`WithIdempotency`, or `options.field`). `init()` makes the unique index;
 * `runUseCase` does the rest. `R` is what a stamp adds to a document (`{ [field]: IdempotencyRecord }`).
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
   * Runs a use case as one keyed request, the one boundary of idempotency: no route builds a
   * stamp and no store takes one.
   *
   * 1. a key already recorded is answered from its record (the same status and body; a 422 for
   *    another fingerprint), and `useCase` does not run;
   * 2. otherwise `useCase` runs in a scope (AsyncLocalStorage) that its store's write reads:
   *    the store spreads `keyedRecord(collection, written)` into the document it inserts (or the
   *    update's `$set`) and, for a write to an existing document, `keyedFilter(collection)` into
   *    its filter. So the key's record is written by the create's own single-document write,
   *    and exists if and only if the create happened. `answerOf(written)` is the answer
   *    recorded, made from what the store writes (trips: the trip as inserted), and the
   *    outcome's answer whether or not a key was sent;
   * 3. when another request with the same key wrote first (in flight at the same time), the
   *    unique index refuses this write, or the filter matches nothing and the use case throws:
   *    whatever `useCase` throws, a key recorded meanwhile answers instead (its first answer,
   *    or a 422 for another fingerprint). `useCase` must undo what it did before the write, as
   *    after any failed write (trips removes the photos it stored).
   *
   * Concurrent same-key requests each run, exactly one writes; no 409. A use case that throws
   * records nothing: a retry runs again. Without a claim the record and filter are empty.
   */
  async runUseCase<T, W = never>(
    claim: IdempotencyClaim | null,
    answerOf: (written: W) => RecordedAnswer,
    useCase: () => Promise<T>,
  ): Promise<IdempotentOutcome<T>> {
    return this.runKeyed(claim, true, async (stamp, notHoldingKey) => {
      const scope: KeyedScope = {
        namespace: this.collection.namespace,
        record: stamp,
        filter: notHoldingKey,
        answerOf: answerOf as (written: unknown) => RecordedAnswer,
        answer: null,
      };
      const value = await keyedScopes.run(scope, useCase);
      if (scope.answer === null) {
        throw new Error(`a keyed use case wrote nothing to ${scope.namespace} (keyedRecord)`);
      }
      return { answer: scope.answer, value };
    });
  }

  /**
   * The older form of `runUseCase`: `create` gets the stamp (`{ [field]: record }` for an
   * answer) to write with its document and the filter of a write to an existing document, and
   * returns its answer. Only a duplicate key error of the write is answered from a key recorded
   * meanwhile (a create that updates a document filters with `notHoldingKey` and upserts, so
   * that a same-key write that lost the race has its insert refused on `_id`); any other
   * duplicate-key error is `create`'s own to handle or throw.
   */
  async run<T>(
    claim: IdempotencyClaim | null,
    create: (stamp: IdempotencyStamp<R>, notHoldingKey: NotHoldingKey) => Promise<Created<T>>,
  ): Promise<IdempotentOutcome<T>> {
    return this.runKeyed(claim, false, create);
  }

  private async runKeyed<T>(
    claim: IdempotencyClaim | null,
    anyFailure: boolean,
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
      if (!anyFailure && !isDuplicateKey(err)) throw err;
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

/** The keyed use case running (`MongoIdempotency.runUseCase`), as its store's write sees it. */
interface KeyedScope {
  /** The collection whose write carries the record (`db.collection`). */
  namespace: string;
  record: (answer: RecordedAnswer) => Document;
  filter: Document;
  answerOf: (written: unknown) => RecordedAnswer;
  /** The answer recorded by the write (null until it is made). */
  answer: RecordedAnswer | null;
}

const keyedScopes = new AsyncLocalStorage<KeyedScope>();

function scopeFor(collection: Pick<Collection, 'namespace'>): KeyedScope | undefined {
  const scope = keyedScopes.getStore();
  return scope?.namespace === collection.namespace ? scope : undefined;
}

/**
 * What a store's write of `written` (the aggregate as it writes it) into `collection` adds for
 * the keyed use case running (`MongoIdempotency.runUseCase`): `{ [field]: record }`, spread
 * into the inserted document or the update's `$set`. `{}` outside a keyed use case, without a
 * key, or for another collection. Call it once per write, when the write is made.
 */
export function keyedRecord(collection: Pick<Collection, 'namespace'>, written: unknown): Document {
  const scope = scopeFor(collection);
  if (!scope) return {};
  scope.answer = scope.answerOf(written);
  return scope.record(scope.answer);
}

/**
 * What a store's write to an existing document of `collection` adds to its filter for the keyed
 * use case running: matching only a document not holding the key, so that the same request
 * again writes nothing (`{}` outside a keyed use case or without a key).
 */
export function keyedFilter(collection: Pick<Collection, 'namespace'>): Document {
  return scopeFor(collection)?.filter ?? {};
}

/** Bounded prune rounds per run, as the outbox relay's. */
const PRUNE_ROUNDS = 10;

/**
 * Prunes the expired records of these collections now and every `intervalMs` (default the
 * outbox relay's 10 minutes), in bounded batches, in the background (service-kit
 * `startPeriodic`, job `idempotency-prune`); a failure waits for the next run. `stop()` ends
 * it (and waits for a run in progress).
 */
export function startIdempotencyPruner(options: {
  stores: readonly MongoIdempotency<Document>[];
  logger: Logger;
  intervalMs?: number;
}): { runOnce(): Promise<number>; stop(): Promise<void> } {
  const log = options.logger.child({ component: 'idempotency-pruner' });
  const job = startPeriodic(
    {
      name: 'idempotency-prune',
      intervalMs: options.intervalMs ?? OUTBOX_PRUNE_INTERVAL_MS,
      run: async () => {
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
      },
    },
    log,
  );
  return { runOnce: job.runNow, stop: job.stop };
}
