import { createHash, type Hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAY_HEADER,
  IdempotencyKey,
  IdempotencyMessages,
} from '@wayfarer/contracts';
import { HttpError } from './errors';

/*
 * Idempotent creates, the part common to both stores (README "Idempotent creates"): reading
 * the client's key, fingerprinting what was asked, and answering a replay. The key is claimed
 * at one boundary, around the use case (`MongoIdempotency.runUseCase`, `idempotentUseCase`),
 * and recorded atomically with the create by the store's write helpers: `pg/idempotency.ts`
 * (a row in the create's transaction, which the store's `inTransaction` joins) and
 * `mongo/idempotency.ts` (a field of the created document under a unique index, which the
 * store's write adds with `keyedRecord`).
 */

/** One create's claim on a key: the user it is scoped to, the key, and what was asked. */
export interface IdempotencyClaim {
  /** The signed-in user: another user's same key is another key. */
  owner: string;
  key: string;
  /** `RequestFingerprint.digest()` of the request: the same key with another one is a 422. */
  fingerprint: string;
}

/** A create's answer as recorded with its key, replayed byte for byte. */
export interface RecordedAnswer {
  status: number;
  /** The JSON text of the body. */
  body: string;
}

/** What a create made: its answer (recorded with the key) and whatever the route needs after. */
export interface Created<T> {
  answer: RecordedAnswer;
  value: T;
}

/** A create's outcome: made now, or the first answer to the same key, replayed. */
export type IdempotentOutcome<T> =
  | { replayed: false; answer: RecordedAnswer; value: T }
  | { replayed: true; answer: RecordedAnswer };

/** The answer to record for a JSON body. */
export function recordedAnswer(status: number, body: unknown): RecordedAnswer {
  return { status, body: JSON.stringify(body) };
}

/**
 * The request's `Idempotency-Key`, or null when it has none. A malformed key (empty, longer than
 * `IdempotencyLimits.keyMaxLength`, anything but visible ASCII, or the header sent twice) is a
 * 400 before anything is read or written.
 */
export function idempotencyKeyOf(request: Pick<FastifyRequest, 'headers'>): string | null {
  const raw = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (raw === undefined) return null;
  const parsed = IdempotencyKey.safeParse(raw);
  if (!parsed.success) throw new HttpError(400, IdempotencyMessages.badKey, 'bad_idempotency_key');
  return parsed.data;
}

/**
 * A SHA-256 over what a request asks, fed as it is read: the method and path, then each field
 * and each file as it streams (a multipart form is never held whole). Every piece is framed by
 * its kind and length, so no two different requests feed the same bytes; a file's bytes go
 * through a hash of their own (folded in with their size when the file ends), so however the
 * network chunked them, the same file gives the same fingerprint.
 */
export class RequestFingerprint {
  private readonly hash = createHash('sha256');
  private currentFile: { hash: Hash; bytes: number } | null = null;

  constructor(method: string, path: string) {
    this.piece('method', method);
    this.piece('path', path);
  }

  private piece(kind: string, value: string | Buffer): void {
    const bytes = typeof value === 'string' ? Buffer.from(value) : value;
    this.hash.update(`${kind}:${bytes.length}:`);
    this.hash.update(bytes);
  }

  private endFile(): void {
    if (!this.currentFile) return;
    this.piece('bytes', this.currentFile.hash.digest());
    this.piece('size', String(this.currentFile.bytes));
    this.currentFile = null;
  }

  /** A text field (a form part, or a whole JSON body). */
  field(name: string, value: string): this {
    this.endFile();
    this.piece('field', name);
    this.piece('value', value);
    return this;
  }

  /** A file part starts; its bytes follow through `fileBytes` (it ends at the next piece). */
  file(name: string, filename: string): this {
    this.endFile();
    this.piece('file', name);
    this.piece('filename', filename);
    this.currentFile = { hash: createHash('sha256'), bytes: 0 };
    return this;
  }

  /** A chunk of the current file's bytes, as streamed. */
  fileBytes(chunk: Buffer): void {
    if (!this.currentFile) throw new Error('fileBytes outside a file');
    this.currentFile.hash.update(chunk);
    this.currentFile.bytes += chunk.length;
  }

  digest(): string {
    this.endFile();
    return this.hash.digest('base64url');
  }
}

/** A request whose body is streamed: its key, and the fingerprint fed as the body is read. */
export interface StreamedClaim {
  /** The request's key (null without one). */
  key: string | null;
  /** What the route feeds while reading the body: undefined without a key (nothing to feed). */
  fingerprint?: RequestFingerprint;
  /** The claim, once the body is read (null without a key); the same claim at every call. */
  claim(): IdempotencyClaim | null;
}

/**
 * The claim of a streamed create (a multipart form) by `owner`: the key is read first (a bad one
 * is a 400 before the body is), the fingerprint starts with the method and path, and the route
 * feeds it the parts it reads (`readForm(..., claim.fingerprint)`).
 */
export function streamedClaim(
  request: Pick<FastifyRequest, 'headers' | 'method' | 'url'>,
  owner: string,
): StreamedClaim {
  const key = idempotencyKeyOf(request);
  if (key === null) return { key, claim: () => null };
  const fingerprint = new RequestFingerprint(request.method, request.url);
  let claim: IdempotencyClaim | undefined;
  return {
    key,
    fingerprint,
    claim: () => (claim ??= { owner, key, fingerprint: fingerprint.digest() }),
  };
}

/**
 * The fingerprint of a JSON request: method, path (with its query) and the body as the route
 * read it, written out as JSON: the route's validated input (its schema's output), never the
 * raw parsed body, whose nesting is unbounded (a 256 KiB body of nested arrays would overflow
 * `JSON.stringify`'s stack) and whose keys the route ignores.
 */
export function jsonFingerprint(request: { method: string; url: string; body: unknown }): string {
  return new RequestFingerprint(request.method, request.url)
    .field('body', JSON.stringify(request.body ?? null))
    .digest();
}

/**
 * The claim of a JSON create by `owner` whose validated body is `input` (null when the route
 * reads none: the path says it all): null when the request has no key (a 400 when it has a bad
 * one).
 */
export function jsonIdempotencyClaim(
  request: Pick<FastifyRequest, 'headers' | 'method' | 'url'>,
  owner: string,
  input: unknown,
): IdempotencyClaim | null {
  const key = idempotencyKeyOf(request);
  if (key === null) return null;
  return {
    owner,
    key,
    fingerprint: jsonFingerprint({ method: request.method, url: request.url, body: input }),
  };
}

/** What a store found recorded under a claim's key. */
export interface RecordedClaim extends RecordedAnswer {
  fingerprint: string;
}

/**
 * The recorded answer to replay for `claim`; a 422 when the key was recorded for a request with
 * another fingerprint (the client reused a key for something else).
 */
export function replayOf(recorded: RecordedClaim, claim: IdempotencyClaim): RecordedAnswer {
  if (recorded.fingerprint !== claim.fingerprint) {
    throw new HttpError(422, IdempotencyMessages.mismatch, 'idempotency_key_reused');
  }
  return { status: recorded.status, body: recorded.body };
}

/** The answer of a create: its JSON as recorded, marked when it is a replay. */
export function sendOutcome(reply: FastifyReply, outcome: IdempotentOutcome<unknown>) {
  if (outcome.replayed) reply.header(IDEMPOTENT_REPLAY_HEADER, 'true');
  return reply
    .code(outcome.answer.status)
    .type('application/json; charset=utf-8')
    .send(outcome.answer.body);
}
