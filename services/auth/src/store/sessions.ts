import type { Pool, PoolClient } from '@wayfarer/service-kit/pg';

/** A session being revoked: its id and when it would have expired (seconds since the epoch). */
export interface RevokedSession {
  jti: string;
  exp: number;
}

/**
 * The sessions auth signed (`sessions`: jti, user, expiry), so every session of a user can be
 * revoked at once: a password change (all but the current one), a closed account (all).
 */
export class SessionsStore {
  constructor(private readonly pool: Pool) {}

  /** Records a session just signed (in `client`'s transaction when given). */
  async record(
    session: { jti: string; userId: string; exp: number },
    client: Pool | PoolClient = this.pool,
  ): Promise<void> {
    await client.query(
      `INSERT INTO sessions (jti, user_id, expires_at) VALUES ($1, $2, to_timestamp($3))
       ON CONFLICT (jti) DO NOTHING`,
      [session.jti, session.userId, session.exp],
    );
  }

  /**
   * Revokes the user's unexpired sessions but `except` inside the caller's transaction: each
   * becomes a `revoked_sessions` row (the durable record, which names no user; Redis's copy is
   * the caller's to write once committed, else the sync does) and leaves `sessions`. Expired
   * ones just leave. Returns the revoked sessions.
   */
  async revokeAllOf(
    client: PoolClient,
    userId: string,
    except?: string,
  ): Promise<RevokedSession[]> {
    const { rows } = await client.query<{ jti: string; exp: string }>(
      `DELETE FROM sessions WHERE user_id = $1 AND jti <> $2
       RETURNING jti, extract(epoch FROM expires_at)::bigint AS exp`,
      [userId, except ?? ''],
    );
    const now = Date.now() / 1000;
    const live = rows.map((r) => ({ jti: r.jti, exp: Number(r.exp) })).filter((r) => r.exp > now);
    await recordRevocations(client, live);
    return live;
  }

  /** Revokes these sessions, listed or not, inside the caller's transaction (idempotent). */
  async recordRevoked(client: PoolClient, sessions: readonly RevokedSession[]): Promise<void> {
    await recordRevocations(client, sessions);
  }
}

/** `revoked_sessions` rows for these sessions, in the caller's transaction (idempotent). */
async function recordRevocations(
  client: PoolClient,
  sessions: readonly RevokedSession[],
): Promise<void> {
  if (sessions.length === 0) return;
  await client.query(
    `INSERT INTO revoked_sessions (jti, expires_at)
     SELECT jti, to_timestamp(exp) FROM unnest($1::text[], $2::bigint[]) AS s(jti, exp)
     ON CONFLICT (jti) DO NOTHING`,
    [sessions.map((s) => s.jti), sessions.map((s) => s.exp)],
  );
}
