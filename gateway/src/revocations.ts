import type { Redis } from 'ioredis';
import {
  parseRevocationMessage,
  revokedSessionKey,
  SESSION_REVOCATIONS_CHANNEL,
} from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';

/**
 * The gateway's copy of the revoked sessions, so that a session check costs no Redis round
 * trip. auth writes `session:revoked:<jti>` and publishes `<jti> <exp>` on
 * `SESSION_REVOCATIONS_CHANNEL` in one MULTI (logout and its reconciler alike). The gateway:
 *
 * 1. subscribes (its own connection, a duplicate of the command client), then
 * 2. loads every `session:revoked:*` key with SCAN (and its expiry with PTTL) on the command
 *    connection. Subscribed first, so a revocation is either already a key when the SCAN passes
 *    (MULTI: key and message together) or arrives as a message; none falls between.
 * 3. Every PING_INTERVAL_MS it PINGs on the subscriber connection. Redis answers on that
 *    connection in order, so when a PING sent at time p is answered, every revocation
 *    committed before p has been received.
 *
 * The copy is trusted only while it is loaded, subscribed, and the last answered PING was sent
 * at most STALENESS_BOUND_MS ago. Hence the bound: **a revocation committed at T is refused by
 * the gateway from T + STALENESS_BOUND_MS at the latest** (in practice within a millisecond,
 * when its message arrives): by then either its message arrived, or no PING sent after T was
 * answered in time, and the copy is no longer trusted. While it is not trusted (subscription
 * down, reloading after a reconnect, Redis frozen), `isRevoked` answers `undefined` and the
 * caller asks Redis per request (EXISTS), which answers, or fails (503) like before: never a
 * silently stale answer.
 *
 * Memory: one entry per revoked, unexpired session (jti and expiry); expired ones are pruned
 * every PRUNE_INTERVAL_MS. A large set is reloaded in full on every reconnect (SCAN, 1,000 keys a
 * step); requests are checked against Redis meanwhile.
 */
export const PING_INTERVAL_MS = 200;
export const STALENESS_BOUND_MS = 1_000;
const PRUNE_INTERVAL_MS = 60_000;
const SCAN_COUNT = 1_000;
/** Pause before reloading again after a failed load (the subscription is still up). */
const RELOAD_RETRY_MS = 500;

export interface RevocationCache {
  /** true/false from the local copy; undefined when it cannot be trusted right now. */
  isRevoked(jti: string): boolean | undefined;
  /** True when the copy is trusted (for tests and readiness reporting). */
  readonly live: boolean;
  close(): Promise<void>;
}

export function startRevocationCache(redis: Redis, logger: Logger): RevocationCache {
  const revoked = new Map<string, number>(); // jti -> expiry (ms since the epoch; Infinity: none)
  const subscriber = redis.duplicate({ lazyConnect: true });
  let loaded = false;
  let subscribed = false;
  let lastAnsweredPingSentAt = -Infinity;
  let pingInFlight = false;
  let generation = 0; // bumped on every loss of the subscription: stale loads and PINGs are ignored
  let closed = false;
  let reloadTimer: NodeJS.Timeout | undefined;

  const add = (jti: string, expiresAtMs: number) => {
    if (expiresAtMs > Date.now()) revoked.set(jti, expiresAtMs);
  };

  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== SESSION_REVOCATIONS_CHANNEL) return;
    const parsed = parseRevocationMessage(message);
    if (parsed) add(parsed.jti, parsed.exp * 1000);
    else logger.warn({ message }, 'unreadable revocation message ignored');
  });

  const lose = (why: string) => {
    if (loaded || subscribed)
      logger.warn({ why }, 'revocation cache not live: checking Redis per request');
    generation++;
    loaded = false;
    subscribed = false;
    lastAnsweredPingSentAt = -Infinity;
    clearTimeout(reloadTimer);
  };

  const load = async (gen: number) => {
    const started = Date.now();
    const found = new Map<string, number>();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(
        cursor,
        'MATCH',
        revokedSessionKey('*'),
        'COUNT',
        SCAN_COUNT,
      );
      cursor = next;
      if (keys.length === 0) continue;
      const pipeline = redis.pipeline();
      for (const key of keys) pipeline.pttl(key);
      const ttls = (await pipeline.exec()) ?? [];
      const now = Date.now();
      keys.forEach((key, i) => {
        const [err, ttl] = ttls[i] ?? [new Error('no answer'), null];
        if (err) throw err;
        const ms = Number(ttl);
        if (ms === -2) return; // expired between SCAN and PTTL
        found.set(key.slice(revokedSessionKey('').length), ms === -1 ? Infinity : now + ms);
      });
      if (gen !== generation) return;
    } while (cursor !== '0');
    if (gen !== generation) return;
    // messages received during the load are in `revoked` already; the SCAN adds the rest
    for (const [jti, exp] of found) add(jti, exp);
    loaded = true;
    logger.info(
      { revoked: revoked.size, ms: Date.now() - started },
      'revocation cache loaded: session checks are local',
    );
  };

  const subscribeAndLoad = async () => {
    const gen = generation;
    try {
      await subscriber.subscribe(SESSION_REVOCATIONS_CHANNEL);
      if (gen !== generation) return;
      subscribed = true;
      await load(gen);
    } catch (err) {
      if (gen !== generation || closed) return;
      logger.warn({ err: (err as Error).message }, 'revocation cache load failed; retrying');
      reloadTimer = setTimeout(() => {
        if (gen === generation && !closed) void subscribeAndLoad();
      }, RELOAD_RETRY_MS);
      reloadTimer.unref();
    }
  };

  subscriber.on('ready', () => void subscribeAndLoad());
  subscriber.on('close', () => lose('subscriber connection closed'));
  subscriber.on('error', () => {}); // 'close' follows; the command client logs the outage

  const ping = () => {
    if (pingInFlight || !subscribed || subscriber.status !== 'ready') return;
    const gen = generation;
    const sentAt = Date.now();
    pingInFlight = true;
    subscriber.ping().then(
      () => {
        pingInFlight = false;
        if (gen === generation) lastAnsweredPingSentAt = sentAt;
      },
      () => {
        pingInFlight = false;
      },
    );
  };
  const pinger = setInterval(ping, PING_INTERVAL_MS);
  pinger.unref();

  const prune = setInterval(() => {
    const now = Date.now();
    for (const [jti, exp] of revoked) if (exp <= now) revoked.delete(jti);
  }, PRUNE_INTERVAL_MS);
  prune.unref();

  subscriber.connect().catch(() => {}); // retried in the background by the client

  const isLive = () =>
    loaded && subscribed && Date.now() - lastAnsweredPingSentAt <= STALENESS_BOUND_MS;

  return {
    isRevoked(jti) {
      if (!isLive()) return undefined;
      const exp = revoked.get(jti);
      return exp !== undefined && exp > Date.now();
    },
    get live() {
      return isLive();
    },
    async close() {
      closed = true;
      clearInterval(pinger);
      clearInterval(prune);
      lose('closing');
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
