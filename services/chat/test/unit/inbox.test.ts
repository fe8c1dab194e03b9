import { describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR } from '@wayfarer/contracts';
import {
  entryAfterMessage,
  entryKey,
  summariesOf,
  type InboxEntry,
  type InboxMessage,
} from '../../src/domain/inbox';
import { InboxAnswers } from '../../src/store/inbox';

// the inbox's pure rules (domain/inbox.ts)

const friend = { name: 'Bob', picture: '' };
const message = (over: Partial<InboxMessage> = {}): InboxMessage => ({
  messageId: '000000000000000000000002',
  roomId: 'ann_bob',
  senderId: 'bob',
  recipientId: 'ann',
  preview: 'Hi.',
  timestamp: '2026-06-01T10:00:00.000Z',
  ...over,
});

describe('entryAfterMessage', () => {
  it("counts a friend's message unread for the recipient, none for the sender", () => {
    const ann = entryAfterMessage(null, 'ann', message(), friend);
    expect(ann).toEqual({
      roomId: 'ann_bob',
      friendId: 'bob',
      name: 'Bob',
      picture: DEFAULT_AVATAR,
      last: {
        _id: '000000000000000000000002',
        content: 'Hi.',
        timestamp: '2026-06-01T10:00:00.000Z',
        senderId: 'bob',
      },
      unread: 1,
      readAt: null,
    });
    const bob = entryAfterMessage(null, 'bob', message(), { name: 'Ann', picture: '/a.webp' });
    expect(bob).toMatchObject({ friendId: 'ann', picture: '/a.webp', unread: 0 });
    expect(bob!.readAt).toBe('2026-06-01T10:00:00.000Z');
    // the next one from the friend adds to the count
    const next = message({
      messageId: '000000000000000000000003',
      timestamp: '2026-06-01T10:01:00.000Z',
    });
    expect(entryAfterMessage(ann, 'ann', next, friend)!.unread).toBe(2);
  });

  it('changes nothing for the same message again or an older one', () => {
    const ann = entryAfterMessage(null, 'ann', message(), friend)!;
    expect(entryAfterMessage(ann, 'ann', message(), friend)).toBeNull();
    const older = message({
      messageId: '000000000000000000000001',
      timestamp: '2026-06-01T09:00:00.000Z',
    });
    expect(entryAfterMessage(ann, 'ann', older, friend)).toBeNull();
    // the same millisecond: the later id is after, the earlier is not
    const sameMs = (id: string) => message({ messageId: id });
    expect(
      entryAfterMessage(ann, 'ann', sameMs('000000000000000000000003'), friend),
    ).not.toBeNull();
    expect(entryAfterMessage(ann, 'ann', sameMs('000000000000000000000001'), friend)).toBeNull();
  });

  it('writing reads the conversation; a message stored before the read is not unread', () => {
    const unread = entryAfterMessage(null, 'ann', message(), friend)!;
    const reply = message({
      messageId: '000000000000000000000005',
      senderId: 'ann',
      recipientId: 'bob',
      timestamp: '2026-06-01T10:05:00.000Z',
    });
    expect(entryAfterMessage(unread, 'ann', reply, friend)).toMatchObject({
      unread: 0,
      readAt: '2026-06-01T10:05:00.000Z',
    });
    // read at 10:10 (opened), then an event of a message stored at 10:07 arrives: read already
    const read = { ...unread, unread: 0, readAt: '2026-06-01T10:10:00.000Z' };
    const before = message({
      messageId: '000000000000000000000007',
      timestamp: '2026-06-01T10:07:00.000Z',
    });
    expect(entryAfterMessage(read, 'ann', before, friend)).toMatchObject({ unread: 0 });
    const after = message({
      messageId: '000000000000000000000009',
      timestamp: '2026-06-01T10:11:00.000Z',
    });
    expect(entryAfterMessage(read, 'ann', after, friend)).toMatchObject({ unread: 1 });
  });
});

describe('summariesOf', () => {
  it('answers the newest last message first (then the later id) without internal fields', () => {
    const entry = (friendId: string, timestamp: string, id: string): InboxEntry => ({
      roomId: `ann_${friendId}`,
      friendId,
      name: friendId,
      picture: DEFAULT_AVATAR,
      last: { _id: id, content: 'x', timestamp, senderId: friendId },
      unread: 1,
      readAt: null,
      v: 3,
    });
    const list = summariesOf([
      entry('bob', '2026-06-01T10:00:00.000Z', 'a1'),
      entry('cal', '2026-06-01T12:00:00.000Z', 'a2'),
      entry('dee', '2026-06-01T10:00:00.000Z', 'a3'),
    ]);
    expect(list.map((c) => c.friend.id)).toEqual(['cal', 'dee', 'bob']);
    expect(Object.keys(list[0]!).sort()).toEqual(['friend', 'lastMessage', 'roomId', 'unread']);
  });
});

describe('entryKey', () => {
  it('keeps letters, digits, _ and -; writes anything else in fixed width, distinct ids distinct', () => {
    expect(entryKey('user_1-A')).toBe('user_1-A');
    expect(entryKey('a.b')).toBe('a%002eb');
    expect(entryKey('$x')).toBe('%0024x');
    const ids = ['a.b', 'a%002eb', 'a%b', 'a.', 'a%002e'];
    expect(new Set(ids.map(entryKey)).size).toBe(ids.length);
    for (const id of ids) expect(entryKey(id)).toMatch(/^[A-Za-z0-9_%-]+$/);
  });
});

describe('InboxAnswers', () => {
  it('answers only for the version it was built from, and keeps at most its bytes', () => {
    const answers = new InboxAnswers(10);
    answers.set('ann', 3, '[1,2]');
    expect(answers.get('ann', 3)).toBe('[1,2]');
    expect(answers.get('ann', 4)).toBeNull();
    expect(answers.get('bob', 3)).toBeNull();
    answers.set('bob', 1, '[3,4]');
    // ann read last: bob's is the least recently read and goes first
    expect(answers.get('ann', 3)).toBe('[1,2]');
    answers.set('cat', 1, '[5]');
    expect(answers.get('bob', 1)).toBeNull();
    expect(answers.get('ann', 3)).toBe('[1,2]');
    expect(answers.get('cat', 1)).toBe('[5]');
    // a newer version replaces the old; one larger than the whole is not kept
    answers.set('ann', 4, '[1]');
    expect(answers.get('ann', 3)).toBeNull();
    expect(answers.get('ann', 4)).toBe('[1]');
    answers.set('dan', 1, '[1,2,3,4,5]');
    expect(answers.get('dan', 1)).toBeNull();
  });
});
