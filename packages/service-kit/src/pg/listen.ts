import pg from 'pg';
import type { Logger } from 'pino';

export interface PgListenOptions {
  /** The database whose notifications to hear (NOTIFY reaches sessions of the same database). */
  connectionString: string;
  channel: string;
  logger: Logger;
  /** Each notification on `channel`, in commit order, while listening. */
  onNotify(payload: string): void;
  /**
   * LISTEN is in effect (the first time and after each reconnection): every transaction that
   * commits from now on is heard. What committed while not listening never will be.
   */
  onListening?(): void;
  /**
   * Listening stopped (connection lost, or its heartbeat unanswered): notifications may be
   * missed until the next `onListening`. Not called by `close()`.
   */
  onReset?(): void;
  /** The reconnection delay doubles from 100 ms up to this. Default 1000. */
  maxBackoffMs?: number;
  /**
   * Every `heartbeatMs` the connection runs `SELECT 1`; unanswered `heartbeatMs` later, it
   * counts as lost, so a connection that died without a word (a network gone silent) is
   * noticed within 2 x heartbeatMs. Default 1000; 0: no heartbeat.
   */
  heartbeatMs?: number;
  /** `application_name` of the connection (`pg_stat_activity`). Default `listen <channel>`. */
  applicationName?: string;
}

export interface PgListener {
  /** Whether LISTEN is in effect right now (between `onListening` and `onReset`). */
  readonly listening: boolean;
  /** Stops for good: no reconnection, no more callbacks. */
  close(): Promise<void>;
}

/** Ends a client, destroying its socket if the server has not said goodbye within `graceMs`. */
async function endClient(client: pg.Client, graceMs: number): Promise<void> {
  const socket = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection
    ?.stream;
  const timer = setTimeout(() => socket?.destroy(), graceMs);
  try {
    await client.end();
  } catch {
    socket?.destroy();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A dedicated connection (not a pool's) that LISTENs on one channel and keeps doing so: when
 * the connection is lost it calls `onReset`, reconnects with backoff (100 ms doubling, capped)
 * and calls `onListening` once LISTEN succeeded again. Problems are logged at warn, never
 * thrown: the connection has an 'error' listener for its whole life (an 'error' nobody hears
 * would kill the process).
 */
export function listenPg(options: PgListenOptions): PgListener {
  const { logger, channel } = options;
  const maxBackoffMs = options.maxBackoffMs ?? 1000;
  const heartbeatMs = options.heartbeatMs ?? 1000;
  let closed = false;
  let listening = false;
  let failures = 0;
  let retry: NodeJS.Timeout | null = null;
  /** Ends the current connection without reconnecting (for `close`). */
  let endCurrent: (() => Promise<void>) | null = null;

  const open = async () => {
    retry = null;
    if (closed) return;
    const client = new pg.Client({
      connectionString: options.connectionString,
      keepAlive: true,
      connectionTimeoutMillis: 5000,
      application_name: options.applicationName ?? `listen ${channel}`,
    });
    let done = false;
    let beat: NodeJS.Timeout | null = null;
    const finish = () => {
      done = true;
      if (beat) clearTimeout(beat);
      if (listening) {
        listening = false;
        if (!closed) options.onReset?.();
      }
    };
    endCurrent = () => {
      finish();
      return endClient(client, 1000);
    };

    /** This connection is done: reset if it was listening, then open another. */
    const lose = (err: unknown) => {
      if (done) return;
      finish();
      endCurrent = null;
      void endClient(client, 0);
      if (closed) return;
      logger.warn({ err, channel }, 'LISTEN connection lost: reconnecting');
      const delay = Math.min(maxBackoffMs, 100 * 2 ** failures++);
      retry = setTimeout(() => void open(), delay);
    };
    const heartbeat = () => {
      beat = setTimeout(() => lose(new Error('LISTEN heartbeat unanswered')), heartbeatMs);
      client.query('SELECT 1').then(
        () => {
          if (done) return;
          if (beat) clearTimeout(beat);
          beat = setTimeout(heartbeat, heartbeatMs);
        },
        (err: unknown) => lose(err),
      );
    };

    client.on('error', (err) => lose(err));
    client.on('end', () => lose(new Error('LISTEN connection ended')));
    client.on('notification', (msg) => {
      if (!done && listening && msg.channel === channel) options.onNotify(msg.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (err) {
      lose(err);
      return;
    }
    if (done) return;
    failures = 0;
    listening = true;
    options.onListening?.();
    if (heartbeatMs > 0) beat = setTimeout(heartbeat, heartbeatMs);
  };

  void open();
  return {
    get listening() {
      return listening;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (retry) clearTimeout(retry);
      await endCurrent?.();
      endCurrent = null;
    },
  };
}
