import { describe, expect, it, vi } from 'vitest';
import { NotificationLimits } from '@wayfarer/contracts';
import { applied, waitOptions, type Harness, notificationsPerFile } from './harness';

// notifications are kept bounded: 90 days, and the newest 500 of each user

const DAY_MS = 24 * 60 * 60 * 1000;
/** How far the service's clock is ahead of the real one (the 90-day bound's tests move it). */
let aheadMs = 0;

let h: Harness;
notificationsPerFile((harness) => (h = harness), { now: () => new Date(Date.now() + aheadMs) });

const rowsOf = async (userId: string) =>
  (
    await h.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM notifications WHERE user_id = $1',
      [userId],
    )
  ).rows[0]!.n;

describe('90 days', () => {
  it('an event older than 90 days makes no notification (a late replay)', async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    await applied(h, await h.request(ann, bob, new Date(Date.now() - 91 * DAY_MS)));
    expect(await rowsOf(bob)).toBe(0);
  });

  it('one of 89 days is listed; two days later it is neither listed nor counted, then pruned', async () => {
    const ann = await h.register('Ann');
    const bob = await h.register('Bob');
    await h.request(ann, bob, new Date(Date.now() - 89 * DAY_MS));
    const recent = await h.request(ann, bob);
    await applied(h, recent);
    const page = await h.page(bob);
    expect(page.notifications).toHaveLength(2);
    expect(page.unread).toBe(2);

    aheadMs = 2 * DAY_MS;
    try {
      const later = await h.page(bob);
      expect(later.notifications.map((n) => n.createdAt)).toEqual([recent.occurredAt]);
      expect(later.unread).toBe(1);
      expect(await rowsOf(bob)).toBe(2);
      expect(await h.pruner.runNow()).toBeGreaterThanOrEqual(1);
      expect(await rowsOf(bob)).toBe(1);
    } finally {
      aheadMs = 0;
    }
  });
});

describe('500 per user', () => {
  it('a new notification beyond 500 drops the oldest', async () => {
    const me = await h.register('Me');
    const ann = await h.register('Ann');
    const max = NotificationLimits.keepPerUser;
    // what the consumers would have stored: 500 requests from ann, a minute apart, 10 hours ago
    await h.pool.query(
      `INSERT INTO notifications (id, user_id, kind, actor_id, subject, created_at, event_id)
       SELECT gen_random_uuid(), $1, 'friend_request', $2, '{}',
              now() - interval '10 hours' + i * interval '1 minute', gen_random_uuid()
         FROM generate_series(1, $3) i`,
      [me, ann, max],
    );
    const { rows } = await h.pool.query<{ id: string }>(
      `SELECT id FROM notifications WHERE user_id = $1 ORDER BY created_at LIMIT 1`,
      [me],
    );
    const oldest = rows[0]!.id;

    const latest = await h.message(ann, me, 'one more');
    await applied(h, latest);
    await vi.waitFor(async () => expect(await rowsOf(me)).toBe(max), waitOptions);
    const all = await h.all(me);
    expect(all).toHaveLength(max);
    expect(all[0]).toMatchObject({ kind: 'message', subject: { preview: 'one more' } });
    expect(all.map((n) => n._id)).not.toContain(oldest);
    expect((await h.page(me)).unread).toBe(max);
    // another user's are not touched
    expect(await rowsOf(ann)).toBe(0);
  });
});
