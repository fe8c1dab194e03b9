import type { Notification } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import {
  badgeText,
  bellReducer,
  initialBellState,
  notificationTarget,
  notificationText,
  titleWithCount,
  unreadIds,
  type BellAction,
  type BellState,
} from './notificationsState';

const actor = { id: 'bea', name: 'Bea', picture: '/p/bea.png' };

const n = (id: string, at: string, over: Partial<Notification> = {}): Notification =>
  ({
    _id: id,
    kind: 'friend_request',
    actor,
    subject: {},
    createdAt: `2026-11-26T10:${at}:00.000Z`,
    read: false,
    ...over,
  }) as Notification;

const message = (id: string, at: string, roomId = 'ada_bea'): Notification =>
  n(id, at, {
    kind: 'message',
    subject: { roomId, messageId: `m-${id}`, preview: 'hello there' },
  } as Partial<Notification>);

const run = (actions: BellAction[], from: BellState = initialBellState) =>
  actions.reduce(bellReducer, from);

const page = (notifications: Notification[], unread: number, nextCursor: string | null = null) => ({
  notifications,
  unread,
  nextCursor,
});

describe('the bell', () => {
  it('loads a page newest first; a failed first load is said, a failed refresh keeps the list', () => {
    expect(run([{ type: 'load-failed' }]).load).toBe('failed');
    const ready = run([{ type: 'loaded', page: page([n('b', '02'), n('a', '01')], 2, 'c1') }]);
    expect(ready.load).toBe('ready');
    expect(ready.items.map((x) => x._id)).toEqual(['b', 'a']);
    expect(ready.unread).toBe(2);
    const refreshed = run([{ type: 'load-start' }, { type: 'load-failed' }], ready);
    expect(refreshed.load).toBe('ready');
    expect(refreshed.items).toHaveLength(2);
  });

  it('a push goes on top with its count, once; a page read before it keeps it', () => {
    const ready = run([{ type: 'loaded', page: page([n('a', '01')], 1) }]);
    const pushed = run(
      [
        { type: 'pushed', notification: n('b', '05'), unread: 2 },
        { type: 'pushed', notification: n('b', '05'), unread: 2 },
      ],
      ready,
    );
    expect(pushed.items.map((x) => x._id)).toEqual(['b', 'a']);
    expect(pushed.unread).toBe(2);
    // a page the server answered before the push reached it: the push stays
    const stale = run([{ type: 'loaded', page: page([n('a', '01')], 1) }], pushed);
    expect(stale.items.map((x) => x._id)).toEqual(['b', 'a']);
    expect(stale.unread).toBe(1);
  });

  it('pages on with the cursor, each notification once, the count as last said', () => {
    const ready = run([{ type: 'loaded', page: page([n('c', '03'), n('b', '02')], 3, 'k') }]);
    const more = run(
      [
        { type: 'more-start' },
        { type: 'more-loaded', page: page([n('b', '02'), n('a', '01')], 3) },
      ],
      ready,
    );
    expect(more.items.map((x) => x._id)).toEqual(['c', 'b', 'a']);
    expect(more.nextCursor).toBeNull();
    expect(more.loadingMore).toBe(false);
    // nothing more to read: more-start changes nothing
    expect(run([{ type: 'more-start' }], more)).toBe(more);
    const failed = run([{ type: 'more-start' }, { type: 'more-failed' }], ready);
    expect(failed).toMatchObject({ loadingMore: false, moreError: true });
  });

  it('marks read at once: some ids, then all; the server’s count after it wins', () => {
    const ready = run([
      { type: 'loaded', page: page([n('c', '03'), n('b', '02'), n('a', '01')], 7) },
    ]);
    const some = run([{ type: 'read', ids: ['b', 'zzz'] }], ready);
    expect(some.items.map((x) => x.read)).toEqual([false, true, false]);
    expect(some.unread).toBe(6);
    // marking one already read changes nothing
    expect(run([{ type: 'read', ids: ['b'] }], some)).toBe(some);
    expect(run([{ type: 'read-done', unread: 5 }], some).unread).toBe(5);
    const all = run([{ type: 'all-read' }], some);
    expect(all.items.every((x) => x.read)).toBe(true);
    expect(all.unread).toBe(0);
    const failed = run([{ type: 'read-failed' }], all);
    expect(failed.markError).toBe(true);
    expect(run([{ type: 'mark-error-dismiss' }], failed).markError).toBe(false);
  });

  it('finds the unread message notifications of a conversation', () => {
    const ready = run([
      {
        type: 'loaded',
        page: page([message('m2', '04'), message('m1', '03', 'ada_cy'), n('r', '01')], 3),
      },
    ]);
    const ids = unreadIds(ready, (x) => x.kind === 'message' && x.subject.roomId === 'ada_bea');
    expect(ids).toEqual(['m2']);
  });
});

describe('what a notification says and opens', () => {
  it('says each kind', () => {
    expect(notificationText(n('a', '01'))).toBe('sent you a friend request');
    expect(notificationText(n('a', '01', { kind: 'friend_accepted' }))).toBe(
      'accepted your friend request',
    );
    expect(notificationText(message('a', '01'))).toBe('wrote: hello there');
    expect(
      notificationText(
        n('a', '01', {
          kind: 'friend_trip',
          subject: { tripId: 't1', name: 'Lisbon' },
        } as Partial<Notification>),
      ),
    ).toBe('added a trip: Lisbon');
  });

  it('opens the requests, the friends, the conversation with the friend, the trip on the feed', () => {
    expect(notificationTarget(n('a', '01'))).toEqual({ to: '/friends#requests' });
    expect(notificationTarget(n('a', '01', { kind: 'friend_accepted' }))).toEqual({
      to: '/friends',
    });
    expect(notificationTarget(message('a', '01'))).toEqual({
      to: '/messages/bea',
      state: { friend: actor },
    });
    expect(
      notificationTarget(
        n('a', '01', {
          kind: 'friend_trip',
          subject: { tripId: 't/1', name: '' },
        } as Partial<Notification>),
      ),
    ).toEqual({ to: '/feed?trip=t%2F1' });
  });
});

describe('counts', () => {
  it('badges: nothing at 0, the number, 99+', () => {
    expect(badgeText(0)).toBe('');
    expect(badgeText(3)).toBe('3');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(120)).toBe('99+');
  });

  it('puts the count in front of the title, replacing an earlier one', () => {
    expect(titleWithCount('Wayfarer', 3)).toBe('(3) Wayfarer');
    expect(titleWithCount('(3) Wayfarer', 4)).toBe('(4) Wayfarer');
    expect(titleWithCount('(99+) Wayfarer', 0)).toBe('Wayfarer');
    expect(titleWithCount('Wayfarer', 0)).toBe('Wayfarer');
  });
});
