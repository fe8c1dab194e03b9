import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dropDatabase, freshDatabase, uniqueSuffix } from '@wayfarer/test-kit';
import { startTcpProxy, type TcpProxy } from '@wayfarer/test-kit/faults';
import { createPgPool, listenPg, type PgListener, type Pool } from '../src/pg';

/** The warnings logged (each line's level and message). */
const warnings: { level: number; msg: string }[] = [];
const logger = pino(
  { level: 'warn' },
  {
    write: (line: string) => void warnings.push(JSON.parse(line) as { level: number; msg: string }),
  },
);
const wait = { timeout: 15_000, interval: 20 };

/** A listener under test with what it reported, in order. */
function recorder() {
  const events: string[] = [];
  return {
    events,
    notified: () => events.filter((e) => e.startsWith('notify:')).map((e) => e.slice(7)),
    count: (what: string) => events.filter((e) => e === what).length,
    callbacks: {
      onNotify: (payload: string) => events.push(`notify:${payload}`),
      onListening: () => events.push('listening'),
      onReset: () => events.push('reset'),
    },
  };
}

describe('listenPg (real PostgreSQL)', () => {
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  let url: string;
  /** The test's own connections: NOTIFY, and the server's view of sessions. */
  let direct: Pool;
  let proxy: TcpProxy;
  const listeners: PgListener[] = [];
  const listen = (options: Partial<Parameters<typeof listenPg>[0]> & { channel: string }) => {
    const r = recorder();
    const listener = listenPg({ connectionString: url, logger, ...r.callbacks, ...options });
    listeners.push(listener);
    return { listener, ...r };
  };
  const channel = () => `kit_listen_${uniqueSuffix()}`;
  const sessions = async (applicationName: string) => {
    const { rows } = await direct.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
      [applicationName],
    );
    return rows.map((r) => r.pid);
  };

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    url = await freshDatabase('kit_listen');
    direct = createPgPool(url, 2);
    proxy = await startTcpProxy();
  });
  afterEach(async () => {
    proxy.restore();
    await Promise.all(listeners.splice(0).map((l) => l.close()));
    expect(uncaught.splice(0)).toEqual([]);
    warnings.splice(0);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await direct?.end();
    await proxy?.close();
    if (url) await dropDatabase(url);
  });

  it('hears what commits after it listens, once per transaction and payload, never a rollback', async () => {
    const ch = channel();
    const l = listen({ channel: ch });
    await vi.waitFor(() => expect(l.listener.listening).toBe(true), wait);
    expect(l.events).toEqual(['listening']);

    await direct.query('SELECT pg_notify($1, $2)', [ch, 'a']);
    await direct.query('SELECT pg_notify($1, $2)', [`${ch}_other`, 'elsewhere']);
    const client = await direct.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_notify($1, $2)', [ch, 'rolled back']);
      await client.query('ROLLBACK');
      // folded: the same payload twice in one transaction arrives once, at commit
      await client.query('BEGIN');
      await client.query('SELECT pg_notify($1, $2)', [ch, 'b']);
      await client.query('SELECT pg_notify($1, $2)', [ch, 'b']);
      await client.query('SELECT pg_notify($1, $2)', [ch, 'c']);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await vi.waitFor(() => expect(l.notified()).toEqual(['a', 'b', 'c']), wait);
    expect(l.count('reset')).toBe(0);
  });

  it('resets when its backend is terminated, listens again, and hears later changes', async () => {
    const ch = channel();
    const applicationName = `kit listen ${uniqueSuffix()}`;
    const l = listen({ channel: ch, applicationName });
    await vi.waitFor(() => expect(l.listener.listening).toBe(true), wait);
    const [pid] = await sessions(applicationName);
    expect(pid).toBeGreaterThan(0);

    await direct.query('SELECT pg_terminate_backend($1)', [pid]);
    await vi.waitFor(() => expect(l.events).toEqual(['listening', 'reset', 'listening']), wait);
    expect(l.listener.listening).toBe(true);
    const [newPid] = await sessions(applicationName);
    expect(newPid).not.toBe(pid);

    await direct.query('SELECT pg_notify($1, $2)', [ch, 'after']);
    await vi.waitFor(() => expect(l.notified()).toEqual(['after']), wait);
  });

  it('notices a connection gone silent by its heartbeat, and listens again once PostgreSQL answers', async () => {
    const ch = channel();
    const l = listen({ channel: ch, connectionString: proxy.route(url), heartbeatMs: 100 });
    await vi.waitFor(() => expect(l.listener.listening).toBe(true), wait);

    // nothing is closed: bytes stop flowing both ways
    proxy.freeze();
    await vi.waitFor(() => expect(l.events).toEqual(['listening', 'reset']), wait);
    expect(l.listener.listening).toBe(false);
    // committed while it is not listening: never heard
    await direct.query('SELECT pg_notify($1, $2)', [ch, 'missed']);

    proxy.restore();
    await vi.waitFor(() => expect(l.listener.listening).toBe(true), wait);
    expect(l.events).toEqual(['listening', 'reset', 'listening']);
    await direct.query('SELECT pg_notify($1, $2)', [ch, 'heard']);
    await vi.waitFor(() => expect(l.notified()).toEqual(['heard']), wait);
  });

  it('keeps trying while PostgreSQL is unreachable at start', async () => {
    const ch = channel();
    proxy.cut();
    const l = listen({ channel: ch, connectionString: proxy.route(url) });
    // attempt after attempt fails, each one a warning (nothing thrown)
    await vi.waitFor(() => expect(warnings.length).toBeGreaterThanOrEqual(3), wait);
    expect(warnings[0]).toMatchObject({ level: 40, msg: 'LISTEN connection lost: reconnecting' });
    expect(l.listener.listening).toBe(false);
    expect(l.events).toEqual([]);
    proxy.restore();
    await vi.waitFor(() => expect(l.listener.listening).toBe(true), wait);
    expect(l.events).toEqual(['listening']);
  });

  it('close() ends its session for good: no reconnection, no callback', async () => {
    const ch = channel();
    const applicationName = `kit listen ${uniqueSuffix()}`;
    const l = listen({ channel: ch, applicationName });
    await vi.waitFor(() => expect(l.listener.listening).toBe(true), wait);
    await l.listener.close();
    expect(l.listener.listening).toBe(false);
    await vi.waitFor(async () => expect(await sessions(applicationName)).toEqual([]), wait);
    // another listener on the channel hears what the closed one no longer does
    const other = listen({ channel: ch });
    await vi.waitFor(() => expect(other.listener.listening).toBe(true), wait);
    await direct.query('SELECT pg_notify($1, $2)', [ch, 'after close']);
    await vi.waitFor(() => expect(other.notified()).toEqual(['after close']), wait);
    expect(l.events).toEqual(['listening']);
    expect(await sessions(applicationName)).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
