import type { ChainableCommander, Redis } from 'ioredis';
import {
  revocationMessage,
  revokedSessionKey,
  SESSION_REVOCATIONS_CHANNEL,
} from '@wayfarer/contracts';
import type { Pool } from '@wayfarer/service-kit/pg';
import { onRedis } from './redis';

/** Rows written to Redis per round trip when syncing. */
const SYNC_BATCH = 500;

/**
 * Revoked sessions. PostgreSQL's `revoked_sessions` is the record (durable once committed);
 * Redis's `session:revoked:<jti>` (what the gateway checks, expiring with the session via
 * `EXAT`) is a copy kept in sync from it: written at logout, and re-written by `sync` for rows
 * Redis may not have (`synced = false`), or for every unexpired row after Redis (re)connects,
 * since a Redis that crashed may have lost its last second of writes.
 *
 * Every write of the key is announced on `SESSION_REVOCATIONS_CHANNEL` in the same MULTI
 * (atomic: a gateway that sees the key by SCAN or the message by subscription sees both), so
 * the gateway's local copy of the revoked set stays exact without a Redis read per request.
 */
export class RevocationStore {
  constructor(
    private readonly pool: Pool,
    private readonly redis: Redis,
  ) {}

  /** Records the revocation in PostgreSQL (throws if it cannot). Idempotent. */
  async record(jti: string, expiresAtSeconds: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO revoked_sessions (jti, expires_at) VALUES ($1, to_timestamp($2))
       ON CONFLICT (jti) DO NOTHING`,
      [jti, expiresAtSeconds],
    );
  }

  /** Copies one revocation to Redis (throws RedisUnavailableError if it cannot). */
  async publish(jti: string, expiresAtSeconds: number): Promise<void> {
    await onRedis(async () => {
      const results = await writeRevocation(this.redis.multi(), jti, expiresAtSeconds).exec();
      const failed = results?.find(([err]) => err);
      if (!results || failed) throw failed?.[0] ?? new Error('redis transaction aborted');
    });
  }

  /**
   * Revokes a session: the PostgreSQL row first (the record), then the Redis key (what the
   * gateway checks), each tried even if the other failed. Says which of the two took; a Redis
   * write that failed is made by the sync (`synced` stays false), a missing row is the caller's
   * to report.
   */
  async revoke(
    jti: string,
    expiresAtSeconds: number,
  ): Promise<{ recorded: boolean; published: boolean; errors: unknown[] }> {
    const errors: unknown[] = [];
    const attempt = (op: Promise<unknown>) =>
      op.then(
        () => true,
        (err: unknown) => {
          errors.push(err);
          return false;
        },
      );
    const recorded = await attempt(this.record(jti, expiresAtSeconds));
    const published = await attempt(this.publish(jti, expiresAtSeconds));
    if (recorded && published) await attempt(this.markSynced([jti]));
    return { recorded, published, errors };
  }

  /**
   * Copies revocations already recorded in PostgreSQL (SessionsStore, committed) to
   * Redis in one MULTI, and marks them synced; on failure the sync writes them within
   * `REVOCATION_SYNC_MS` (they stay `synced = false`). Returns the error, if any.
   */
  async publishRecorded(sessions: readonly { jti: string; exp: number }[]): Promise<unknown> {
    if (sessions.length === 0) return undefined;
    try {
      await onRedis(async () => {
        const transaction = this.redis.multi();
        for (const s of sessions) writeRevocation(transaction, s.jti, s.exp);
        const results = await transaction.exec();
        const failed = results?.find(([err]) => err);
        if (!results || failed) throw failed?.[0] ?? new Error('redis transaction aborted');
      });
      await this.markSynced(sessions.map((s) => s.jti));
      return undefined;
    } catch (err) {
      return err;
    }
  }

  /** Notes that Redis has these revocations (the periodic sync skips them). */
  async markSynced(jtis: readonly string[]): Promise<void> {
    if (jtis.length === 0) return;
    await this.pool.query('UPDATE revoked_sessions SET synced = true WHERE jti = ANY($1)', [jtis]);
  }

  /**
   * Writes unexpired revocations to Redis, in batches: every one (`all`, after Redis
   * (re)connected) or only those not known to be there; then deletes expired rows.
   * Returns how many were written. Throws if PostgreSQL or Redis fails midway (a later
   * sync resumes: rows are marked only once Redis has them).
   */
  async sync({ all }: { all: boolean }): Promise<number> {
    let written = 0;
    let after = '';
    for (;;) {
      const { rows } = await this.pool.query<{ jti: string; exp: number }>(
        `SELECT jti, extract(epoch FROM expires_at)::bigint AS exp FROM revoked_sessions
         WHERE expires_at > now() AND jti > $1 ${all ? '' : 'AND NOT synced'}
         ORDER BY jti LIMIT ${SYNC_BATCH}`,
        [after],
      );
      if (rows.length === 0) break;
      await onRedis(async () => {
        const transaction = this.redis.multi();
        for (const row of rows) writeRevocation(transaction, row.jti, Number(row.exp));
        const results = await transaction.exec();
        const failed = results?.find(([err]) => err);
        if (!results || failed) throw failed?.[0] ?? new Error('redis transaction aborted');
      });
      await this.markSynced(rows.map((r) => r.jti));
      written += rows.length;
      after = rows[rows.length - 1]!.jti;
    }
    await this.pool.query('DELETE FROM revoked_sessions WHERE expires_at <= now()');
    await this.pool.query('DELETE FROM sessions WHERE expires_at <= now()');
    return written;
  }
}

/** The key the gateway checks, and its announcement (queued on a MULTI, run with it). */
function writeRevocation(
  transaction: ChainableCommander,
  jti: string,
  expiresAtSeconds: number,
): ChainableCommander {
  return transaction
    .set(revokedSessionKey(jti), '1', 'EXAT', expiresAtSeconds)
    .publish(SESSION_REVOCATIONS_CHANNEL, revocationMessage(jti, expiresAtSeconds));
}
