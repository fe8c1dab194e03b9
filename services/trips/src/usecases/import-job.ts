import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ImportLimits, ImportMessages } from '@wayfarer/contracts';
import {
  recordedAnswer,
  replayOf,
  type IdempotencyClaim,
  type IdempotentOutcome,
  type RecordedAnswer,
  type StreamedClaim,
} from '@wayfarer/service-kit';
import { idempotencyScope } from '@wayfarer/service-kit/mongo';
import { ReadDeadline } from '../domain/import/bounds';
import { holdImportLease } from '../jobs/import-lease';
import { ImportRateError, UnavailableError } from '../domain/errors';
import { newId } from '../domain/trip';
import type { ImportDoc, ImportsStore } from '../store/imports';
import {
  importTrips,
  type ImportMade,
  type ImportTripsDeps,
  type ImportUpload,
} from './import-trips';
import { abandonImport, discardImport, revealImport, type ImportUnitDeps } from './import-unit';

export type ImportJobDeps = ImportTripsDeps &
  ImportUnitDeps & {
    imports: ImportsStore;
    /** An import's lease (`IMPORT_LEASE_MS`), renewed every third of it while it runs. */
    importLeaseMs: number;
    /** How long reading its file may take (`IMPORT_READ_TIMEOUT_MS`). */
    importReadMs: number;
  };

export interface ImportRequest {
  ownerId: string;
  /** The request's `Idempotency-Key` with its fingerprint; null without a key. */
  claim: IdempotencyClaim | null;
  upload: ImportUpload;
  spoolDir: string;
  today: string;
}

/** `POST /api/import` as its route reads it: the file is read only once the rate allows it. */
export interface ImportFileRequest {
  ownerId: string;
  /** The request's `Idempotency-Key` (its claim once the file is read). */
  keyed: Pick<StreamedClaim, 'key' | 'claim'>;
  /** Reads the form's file to the spool directory (feeding the key's fingerprint). */
  readUpload: () => Promise<ImportUpload>;
  spoolDir: string;
  today: string;
}

/**
 * `POST /api/import`: a user at the rate limit is refused before the file is read
 * (`checkImportRate`, unless the key has an import already, which answers the retry), then the
 * file is read and imported as one unit (`runImport`).
 */
export async function importFile(
  deps: ImportJobDeps,
  request: ImportFileRequest,
): Promise<IdempotentOutcome<ImportMade>> {
  const { ownerId, keyed } = request;
  await checkImportRate(
    deps,
    ownerId,
    keyed.key === null ? null : { owner: ownerId, key: keyed.key },
  );
  const upload = await request.readUpload();
  return runImport(deps, {
    ownerId,
    claim: keyed.claim(),
    upload,
    spoolDir: request.spoolDir,
    today: request.today,
  });
}

/** How often a retry looks again at the import of its key that another request is running. */
const WAIT_POLL_MS = 200;

/**
 * `POST /api/import` as one unit: all of its trips or none,
 * shown only once all are made, and never twice for one `Idempotency-Key`.
 *
 * 1. With a key already recorded (`imports`, unique on `[owner, key]`): the same key with
 *    another file is a 422; a `done` import is answered its recorded answer
 *    (`Idempotent-Replayed`); a `committing` one is finished (its trips shown) and answered; a
 *    `running` one whose lease holds is waited for (another request is at work on it: its
 *    answer is this one's); one whose lease ran out (its process died) is taken over: abandoned
 *    (its hidden trips and photos removed at once), then run again as below.
 * 2. Otherwise the import is recorded `running` with a lease (the key's claim: of two
 *    requests racing with one key, one inserts, the other goes to 1.), ranked among the user's
 *    imports of the last hour (`ImportLimits.perUserPerHour`, else 429 and the record goes),
 *    and run: its trips are written hidden (`importTrips`), while a timer renews the lease.
 * 3. The commit point: the answer is recorded and the import moves to `committing` (only while
 *    this attempt still holds it running); then every trip is shown in one update, and the
 *    import is `done`. A failure before 3 gives the import up: its trips and photos removed,
 *    its key freed (a retry runs it again). A process dying before 3 leaves a lease that runs
 *    out: a retry takes over, or the sweeper removes the leftovers; dying during 3 leaves a
 *    `committing` import that a retry or the sweeper finishes.
 */
export async function runImport(
  deps: ImportJobDeps,
  request: ImportRequest,
): Promise<IdempotentOutcome<ImportMade>> {
  const waitUntil = Date.now() + ImportLimits.answerTimeoutMs;
  const { claim } = request;
  for (;;) {
    if (claim) {
      const existing = await deps.imports.findByScope(idempotencyScope(claim));
      if (existing) {
        const answer = await settleExisting(deps, existing, claim, waitUntil);
        if (answer) return { replayed: true, answer };
        continue;
      }
    }
    const startedAt = new Date();
    const doc: ImportDoc = {
      _id: newId(startedAt.getTime()),
      ownerId: request.ownerId,
      startedAt,
      state: 'running',
      holder: randomUUID(),
      expiresAt: new Date(startedAt.getTime() + deps.importLeaseMs),
      ...(claim ? { scope: idempotencyScope(claim), fingerprint: claim.fingerprint } : {}),
    };
    // another request recorded the same key meanwhile: answered by 1.
    if (!(await deps.imports.start(doc))) continue;
    await admit(deps, doc);
    const made = await runClaimed(deps, doc, request);
    return { replayed: false, answer: made.answer, value: made };
  }
}

/**
 * The answer for a retry of the import `existing` holds (its first answer), or null to look
 * again (it was waited for, or taken over). A 422 when the key came with another file.
 */
async function settleExisting(
  deps: ImportJobDeps,
  existing: ImportDoc,
  claim: IdempotencyClaim,
  waitUntil: number,
): Promise<RecordedAnswer | null> {
  replayOf({ fingerprint: existing.fingerprint ?? '', status: 0, body: '' }, claim);
  switch (existing.state) {
    case 'done':
      return answerOf(existing);
    case 'committing':
      await revealImport(deps, existing);
      return answerOf(existing);
    case 'running':
      if (existing.expiresAt.getTime() > Date.now()) {
        if (Date.now() > waitUntil) throw new UnavailableError(ImportMessages.stillRunning);
        await sleep(WAIT_POLL_MS);
        return null;
      }
      // its process is gone: what it wrote goes now, and this request runs the import
      if (await deps.imports.abandon(existing)) {
        deps.logger.warn(
          { importId: existing._id },
          'an import whose process died is taken over by a retry of its key',
        );
        await discardImport(deps, existing._id);
        await deps.imports.markFailed(existing._id);
      }
      return null;
    default:
      // given up meanwhile (its key is being freed): look again shortly
      await sleep(WAIT_POLL_MS);
      return null;
  }
}

/** The answer a committed import recorded (the commit writes it with the state). */
function answerOf(doc: ImportDoc): RecordedAnswer {
  if (!doc.answer) throw new Error(`the import ${doc._id} is ${doc.state} without an answer`);
  return doc.answer;
}

/**
 * The rate limit (`ImportLimits.perUserPerHour`): the user's imports started within the window
 * up to this one, in id order, so of imports racing for the last place exactly those within the
 * limit go on. Past it: the record goes, and a 429 says when the next may start.
 */
async function admit(deps: ImportJobDeps, doc: ImportDoc): Promise<void> {
  const since = new Date(doc.startedAt.getTime() - ImportLimits.rateWindowMs);
  if ((await deps.imports.rank(doc.ownerId, since, doc._id)) <= ImportLimits.perUserPerHour) return;
  await deps.imports.remove(doc._id);
  throw await rateError(deps, doc.ownerId, since);
}

/**
 * Before the file is read at all (`POST /api/import` checks this first, unless the request's
 * key has an import already, which a retry is answered from): a user at the rate limit gets the
 * 429 before uploading up to 256 MiB for nothing. `admit` counts exactly later.
 */
export async function checkImportRate(
  deps: Pick<ImportJobDeps, 'imports'>,
  ownerId: string,
  claim: Pick<IdempotencyClaim, 'owner' | 'key'> | null,
): Promise<void> {
  if (claim && (await deps.imports.findByScope(idempotencyScope(claim)))) return;
  const since = new Date(Date.now() - ImportLimits.rateWindowMs);
  if ((await deps.imports.countSince(ownerId, since)) < ImportLimits.perUserPerHour) return;
  throw await rateError(deps, ownerId, since);
}

async function rateError(
  deps: Pick<ImportJobDeps, 'imports'>,
  ownerId: string,
  since: Date,
): Promise<ImportRateError> {
  const oldest = await deps.imports.oldestSince(ownerId, since);
  const retryAfterMs = Math.max(
    1000,
    (oldest?.getTime() ?? Date.now()) + ImportLimits.rateWindowMs - Date.now(),
  );
  return new ImportRateError(ImportMessages.rateLimited(retryAfterMs), retryAfterMs);
}

/** Runs the import `doc` records, holding its lease, to its commit (or gives it up). */
async function runClaimed(
  deps: ImportJobDeps,
  doc: ImportDoc,
  request: ImportRequest,
): Promise<ImportMade & { answer: RecordedAnswer }> {
  const lease = holdLease(deps, doc);
  let committed = false;
  try {
    const made = await importTrips(
      deps,
      doc.ownerId,
      request.upload,
      request.spoolDir,
      request.today,
      { importId: doc._id, deadline: new ReadDeadline(deps.importReadMs), checkpoint: lease.check },
    );
    lease.check();
    const answer = recordedAnswer(201, made.result);
    // the commit point: from here the import is shown, by this request or whoever finds it
    if (!(await deps.imports.commit(doc._id, doc.holder, answer))) {
      throw new UnavailableError(ImportMessages.interrupted);
    }
    committed = true;
    lease.stop();
    try {
      await revealImport(deps, doc);
    } catch (err) {
      deps.logger.error(
        { err, importId: doc._id },
        'an import committed but its trips could not be shown yet; a retry or the sweeper will',
      );
      throw new UnavailableError(ImportMessages.notShownYet);
    }
    return { ...made, answer };
  } catch (err) {
    lease.stop();
    if (!committed) await abandonImport(deps, { _id: doc._id, holder: doc.holder });
    throw err;
  }
}

/** The import's lease held while it runs; `check()` throws once it was lost. */
function holdLease(deps: ImportJobDeps, doc: ImportDoc): { check: () => void; stop: () => void } {
  const lease = holdImportLease(deps, doc);
  return {
    check: () => {
      if (lease.lost()) throw new UnavailableError(ImportMessages.interrupted);
    },
    stop: lease.stop,
  };
}
