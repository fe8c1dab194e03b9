import type { ConversationSummary, Notification } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import {
  conversationsView,
  inboxReducer,
  initialInboxState,
  previewOf,
  unreadConversations,
  type InboxAction,
  type InboxState,
} from './inboxState';

const conv = (
  friendId: string,
  at: string,
  unread = 0,
  senderId = friendId,
  id = `m-${friendId}-${at}`,
): ConversationSummary => ({
  roomId: `ada_${friendId}`,
  friend: { id: friendId, name: `Friend ${friendId}`, picture: '' },
  lastMessage: {
    _id: id,
    content: `from ${friendId} at ${at}`,
    timestamp: `2026-11-26T10:${at}:00.000Z`,
    senderId,
  },
  unread,
});

const push = (friendId: string, at: string, messageId: string): Notification => ({
  _id: `n-${messageId}`,
  kind: 'message',
  actor: { id: friendId, name: `Friend ${friendId}`, picture: '' },
  subject: { roomId: `ada_${friendId}`, messageId, preview: `pushed ${messageId}` },
  createdAt: `2026-11-26T10:${at}:00.000Z`,
  read: false,
});

const run = (actions: InboxAction[], from: InboxState = initialInboxState) =>
  actions.reduce(inboxReducer, from);

describe('the inbox', () => {
  it('shows the answer newest first and counts the conversations with unread messages', () => {
    const s = run([
      {
        type: 'loaded',
        conversations: [conv('bea', '05', 2), conv('cy', '09'), conv('dan', '01', 1)],
      },
    ]);
    expect(conversationsView(s).map((c) => c.friend.id)).toEqual(['cy', 'bea', 'dan']);
    expect(unreadConversations(s)).toBe(2);
    expect(run([{ type: 'load-failed' }]).load).toBe('failed');
    // a failed refresh keeps what is shown
    expect(run([{ type: 'load-start' }, { type: 'load-failed' }], s).load).toBe('ready');
  });

  it('a pushed message stands in until an answer shows it: on top, its preview, one more unread', () => {
    const s = run([
      { type: 'loaded', conversations: [conv('cy', '09'), conv('bea', '05', 1)] },
      { type: 'pushed', notification: push('bea', '10', 'm-new') },
      { type: 'pushed', notification: push('bea', '10', 'm-new') },
    ]);
    const view = conversationsView(s);
    expect(view[0]).toMatchObject({
      friend: { id: 'bea' },
      unread: 2,
      lastMessage: { _id: 'm-new', content: 'pushed m-new', senderId: 'bea' },
    });
    expect(view).toHaveLength(2);
    // an answer read before chat's inbox had the message: it still stands in
    const stale = run(
      [{ type: 'loaded', conversations: [conv('cy', '09'), conv('bea', '05', 1)] }],
      s,
    );
    expect(conversationsView(stale)[0]!.lastMessage._id).toBe('m-new');
    // the answer that has it: the answer alone
    const fresh = run(
      [{ type: 'loaded', conversations: [conv('bea', '10', 2, 'bea', 'm-new'), conv('cy', '09')] }],
      stale,
    );
    expect(fresh.pending).toEqual([]);
    expect(conversationsView(fresh)[0]).toMatchObject({ unread: 2, lastMessage: { _id: 'm-new' } });
  });

  it('a push from a new conversation adds it; a push the answer already shows changes nothing', () => {
    const s = run([
      { type: 'loaded', conversations: [conv('cy', '09')] },
      { type: 'pushed', notification: push('eve', '11', 'm-eve') },
    ]);
    expect(conversationsView(s).map((c) => [c.friend.id, c.unread])).toEqual([
      ['eve', 1],
      ['cy', 0],
    ]);
    expect(unreadConversations(s)).toBe(1);
    const shown = run([{ type: 'pushed', notification: push('cy', '08', 'm-old') }], s);
    expect(shown).toBe(s);
  });

  it('opening a conversation reads it: its count and its pushes go', () => {
    const s = run([
      { type: 'loaded', conversations: [conv('bea', '05', 3), conv('cy', '09', 1)] },
      { type: 'pushed', notification: push('bea', '10', 'm-new') },
      { type: 'room-read', roomId: 'ada_bea' },
    ]);
    expect(s.pending).toEqual([]);
    expect(conversationsView(s).map((c) => [c.friend.id, c.unread])).toEqual([
      ['cy', 1],
      ['bea', 0],
    ]);
    expect(unreadConversations(s)).toBe(1);
    expect(run([{ type: 'room-read', roomId: 'ada_bea' }], s)).toBe(s);
  });

  it('says “You:” before the user’s own last message', () => {
    expect(previewOf(conv('bea', '05'))).toBe('from bea at 05');
    expect(previewOf(conv('bea', '05', 0, 'ada'))).toBe('You: from bea at 05');
  });
});
