import { z } from 'zod';

/*
 * Idempotent creates: a client names each create it makes with a key of
 * its own, and sends the same key when it retries that create (its answer was lost: a 502, a
 * cut connection). The service answers a retry with the first answer and creates nothing; the
 * mechanism is service-kit's (`idempotency.ts`, with a PostgreSQL and a MongoDB variant).
 */

/**
 * The request header carrying the key (`Idempotency-Key`, as the IETF draft names it), taken by
 * `POST /api/trips`, `POST /api/bucketlist`, `POST /api/journal`, `POST /api/add-friend/{id}` and
 * `POST /api/import` (a retry is answered the import's result, or finishes it: docs/services/trips.md).
 * Chat messages use `send_message`'s `clientId` as their key instead.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Set (to `true`) on an answer that is a replay of the first answer to the same key. */
export const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed';

export const IdempotencyLimits = {
  /** Longest key, in characters (a UUID is 36). */
  keyMaxLength: 128,
  /** How long a key is remembered after its create; then it is pruned and free again. */
  retentionMs: 24 * 60 * 60 * 1000,
} as const;

/** Texts of the answers about keys. */
export const IdempotencyMessages = {
  /** 400: a malformed key. */
  badKey: `The Idempotency-Key header must be 1 to ${IdempotencyLimits.keyMaxLength} visible ASCII characters (no spaces or control characters), sent once.`,
  /** 422: the key was used already for another request. */
  mismatch:
    'This Idempotency-Key was already used for a different request: send a new key for a new request.',
  /** Chat's ack `error` for a `clientId` that is not a key (`IdempotencyKey`). */
  badClientId: `clientId must be 1 to ${IdempotencyLimits.keyMaxLength} visible ASCII characters (no spaces or control characters).`,
  /** Chat's ack `error` when a `clientId` was used for another message. */
  clientIdReused: 'This clientId was already used for a different message.',
} as const;

/**
 * A key as sent: visible ASCII only (0x21-0x7E: no space, no control character, nothing a
 * header or a log line could be split by), 1 to `keyMaxLength` characters.
 */
export const IdempotencyKey = z
  .string()
  .min(1, IdempotencyMessages.badKey)
  .max(IdempotencyLimits.keyMaxLength, IdempotencyMessages.badKey)
  .regex(/^[\x21-\x7e]+$/, IdempotencyMessages.badKey);
export type IdempotencyKey = z.infer<typeof IdempotencyKey>;
