import type { ConversationMessage, ReceiveMessage } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import {
  CHAT_TEXTS,
  chatReducer,
  initialChatState,
  sendableText,
  type ChatAction,
  type ChatState,
} from './chatState';

const ME = 'u-me';
const BEA = 'u-bea';
const ROOM = `${BEA}_${ME}`;

/** A stored message n (its time grows with n), as the history answers it. */
const hist = (n: number, from = BEA, text = `m${n}`): ConversationMessage => ({
  _id: `id${String(n).padStart(3, '0')}`,
  sender: { _id: from, name: from, email: `${from}@example.com` },
  content: text,
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
  conversation: ROOM,
});

/** The same stored message n as the live event carries it. */
const live = (n: number, from = BEA, text = `m${n}`, clientId?: string): ReceiveMessage => ({
  _id: `id${String(n).padStart(3, '0')}`,
  roomId: ROOM,
  from,
  text,
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
  ...(clientId ? { clientId } : {}),
});

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => hist(from + i));

const run = (...actions: ChatAction[]) => actions.reduce(chatReducer, initialChatState);
const texts = (s: ChatState) => s.messages.map((m) => m.text);
const statuses = (s: ChatState) => s.messages.map((m) => `${m.text}:${m.status}`);

const send = (clientId: string, text: string, n = 100): ChatAction => ({
  type: 'send',
  clientId,
  from: ME,
  text,
  timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
});

describe('chat state: history and Load more messages', () => {
  it('shows the newest page on opening, in order, with the cursor of older ones', () => {
    const s = run({ type: 'history-loaded', messages: range(21, 30), nextCursor: 'c20' });
    expect(s.history).toBe('ready');
    expect(texts(s)).toEqual(range(21, 30).map((m) => m.content));
    expect(s.cursor).toBe('c20');
  });

  it('puts the older page in front, in order, then stops when nothing is older', () => {
    let s = run({ type: 'history-loaded', messages: range(21, 30), nextCursor: 'c20' });
    s = chatReducer(s, { type: 'more-start' });
    expect(s.loadingMore).toBe(true);
    s = chatReducer(s, { type: 'more-loaded', messages: range(1, 20), nextCursor: null });
    expect(texts(s)).toEqual(range(1, 30).map((m) => m.content));
    expect(s.cursor).toBeNull();
    expect(s.loadingMore).toBe(false);
    // nothing older: a further 'more-start' changes nothing
    expect(chatReducer(s, { type: 'more-start' })).toBe(s);
  });

  it('a second load more while one is running is ignored', () => {
    const s = run(
      { type: 'history-loaded', messages: range(21, 30), nextCursor: 'c20' },
      { type: 'more-start' },
    );
    expect(chatReducer(s, { type: 'more-start' })).toBe(s);
  });

  it('a message received before the history page arrived is kept once', () => {
    const s = run(
      { type: 'received', message: live(30) },
      { type: 'received', message: live(31) },
      { type: 'history-loaded', messages: range(21, 30), nextCursor: 'c20' },
    );
    expect(texts(s)).toEqual([...range(21, 30).map((m) => m.content), 'm31']);
  });

  it('a failed history says so: the server message, else "An error occurred"', () => {
    expect(run({ type: 'history-failed' }).historyError).toBe(CHAT_TEXTS.historyFailed);
    expect(run({ type: 'history-failed', message: '  ' }).historyError).toBe('An error occurred');
    const s = run({ type: 'history-failed', message: 'You can only chat with your friends.' });
    expect(s.history).toBe('failed');
    expect(s.historyError).toBe('You can only chat with your friends.');
  });

  it('a failed load more keeps what is shown and the cursor', () => {
    const s = run(
      { type: 'history-loaded', messages: range(21, 30), nextCursor: 'c20' },
      { type: 'more-start' },
      { type: 'more-failed' },
    );
    expect(s.moreError).toBe('An error occurred');
    expect(s.cursor).toBe('c20');
    expect(s.messages).toHaveLength(10);
  });
});

describe('chat state: sending', () => {
  const opened = run({ type: 'history-loaded', messages: range(1, 3), nextCursor: null });

  it('empty or whitespace-only text is not sent', () => {
    expect(sendableText('')).toBeNull();
    expect(sendableText(' \n\t ')).toBeNull();
    expect(sendableText('  hi there \n')).toBe('hi there');
    expect(chatReducer(opened, send('c1', '   \n'))).toBe(opened);
  });

  it('a sent message shows at once as pending, trimmed, after the rest', () => {
    const s = chatReducer(opened, send('c1', '  hello  '));
    expect(statuses(s)).toEqual(['m1:sent', 'm2:sent', 'm3:sent', 'hello:pending']);
    expect(s.messages.at(-1)!.id).toBeNull();
  });

  it('the ack confirms it with the stored id; the broadcast that follows is dropped', () => {
    let s = chatReducer(opened, send('c1', 'hello'));
    s = chatReducer(s, { type: 'ack', clientId: 'c1', message: live(10, ME, 'hello') });
    expect(statuses(s)).toEqual(['m1:sent', 'm2:sent', 'm3:sent', 'hello:sent']);
    expect(s.messages.at(-1)!.id).toBe('id010');
    // the same stored message comes back through the room (with or without the clientId)
    s = chatReducer(s, { type: 'received', message: live(10, ME, 'hello', 'c1') });
    s = chatReducer(s, { type: 'received', message: live(10, ME, 'hello') });
    expect(statuses(s)).toEqual(['m1:sent', 'm2:sent', 'm3:sent', 'hello:sent']);
  });

  it('the broadcast arriving before the ack confirms it; the late ack changes nothing', () => {
    let s = chatReducer(opened, send('c1', 'hello'));
    s = chatReducer(s, { type: 'received', message: live(10, ME, 'hello', 'c1') });
    expect(statuses(s)).toEqual(['m1:sent', 'm2:sent', 'm3:sent', 'hello:sent']);
    const after = chatReducer(s, {
      type: 'ack',
      clientId: 'c1',
      message: live(10, ME, 'hello', 'c1'),
    });
    expect(statuses(after)).toEqual(statuses(s));
  });

  it('two identical texts sent in a row stay two messages', () => {
    let s = run(send('c1', 'ok', 100), send('c2', 'ok', 101));
    s = chatReducer(s, { type: 'ack', clientId: 'c2', message: live(21, ME, 'ok') });
    s = chatReducer(s, { type: 'ack', clientId: 'c1', message: live(20, ME, 'ok') });
    expect(s.messages.map((m) => m.id)).toEqual(['id020', 'id021']);
  });

  it('a pending message stays after messages received meanwhile, until confirmed', () => {
    let s = chatReducer(opened, send('c1', 'mine'));
    s = chatReducer(s, { type: 'received', message: live(9) });
    expect(texts(s)).toEqual(['m1', 'm2', 'm3', 'm9', 'mine']);
    s = chatReducer(s, { type: 'ack', clientId: 'c1', message: live(8, ME, 'mine') });
    // confirmed: in the server's order
    expect(texts(s)).toEqual(['m1', 'm2', 'm3', 'mine', 'm9']);
  });

  it('a refused message shows as not sent with the reason; retry makes it pending again', () => {
    let s = chatReducer(opened, send('c1', 'hello'));
    s = chatReducer(s, {
      type: 'ack-failed',
      clientId: 'c1',
      error: 'Too many messages, slow down.',
    });
    expect(s.messages.at(-1)).toMatchObject({
      status: 'failed',
      error: 'Too many messages, slow down.',
    });
    s = chatReducer(s, { type: 'retry', clientId: 'c1', timestamp: '2025-01-01T00:05:00.000Z' });
    expect(s.messages.at(-1)).toMatchObject({ status: 'pending', error: null, text: 'hello' });
    expect(s.messages).toHaveLength(4);
  });

  it('the same clientId is not added twice', () => {
    const s = run(send('c1', 'hello'));
    expect(chatReducer(s, send('c1', 'hello'))).toBe(s);
  });
});

describe('chat state: receiving and reconnecting', () => {
  it('a received message is shown once, however often it arrives', () => {
    let s = run({ type: 'history-loaded', messages: range(1, 3), nextCursor: null });
    s = chatReducer(s, { type: 'received', message: live(4) });
    s = chatReducer(s, { type: 'received', message: live(4) });
    s = chatReducer(s, { type: 'received', message: live(3) });
    expect(texts(s)).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('after a reconnect the missed messages are merged in, each once, in order', () => {
    let s = run(
      { type: 'history-loaded', messages: range(21, 30), nextCursor: 'c20' },
      { type: 'connection', connection: 'reconnecting' },
    );
    expect(s.connection).toBe('reconnecting');
    // the newest page after reconnecting: some shown already, some missed
    s = chatReducer(s, { type: 'caught-up', messages: range(1, 35), nextCursor: null });
    s = chatReducer(s, { type: 'connection', connection: 'connected' });
    // only what is newer than the oldest shown joins: Load more keeps its place
    expect(texts(s)).toEqual(range(21, 35).map((m) => m.content));
    expect(s.cursor).toBe('c20');
    expect(s.connection).toBe('connected');
    // the live event of one already merged is dropped
    s = chatReducer(s, { type: 'received', message: live(35) });
    expect(s.messages).toHaveLength(15);
  });

  it('when more was missed than a page holds, it starts again from the newest page', () => {
    let s = run({ type: 'history-loaded', messages: range(21, 30), nextCursor: 'c20' });
    s = chatReducer(s, send('c1', 'unsent'));
    s = chatReducer(s, { type: 'caught-up', messages: range(100, 149), nextCursor: 'c99' });
    expect(texts(s)).toEqual([...range(100, 149).map((m) => m.content), 'unsent']);
    expect(s.cursor).toBe('c99');
    // load more now leads back from there without repeating anything
    s = chatReducer(s, { type: 'more-start' });
    s = chatReducer(s, { type: 'more-loaded', messages: range(80, 99), nextCursor: 'c79' });
    expect(s.messages.filter((m) => m.id !== null).map((m) => m.text)).toEqual(
      range(80, 149).map((m) => m.content),
    );
  });

  it('a message of mine stored before its ack was lost is not shown twice', () => {
    let s = run({ type: 'history-loaded', messages: range(1, 3), nextCursor: null });
    s = chatReducer(s, send('c1', 'are you there?'));
    s = chatReducer(s, {
      type: 'ack-failed',
      clientId: 'c1',
      error: 'The message could not be sent.',
    });
    s = chatReducer(s, {
      type: 'caught-up',
      messages: [...range(1, 3), hist(4, ME, 'are you there?')],
      nextCursor: null,
    });
    expect(statuses(s)).toEqual(['m1:sent', 'm2:sent', 'm3:sent', 'are you there?:sent']);
  });

  it('a catch-up after a failed first load fills the screen and its cursor', () => {
    let s = run({ type: 'history-failed' });
    s = chatReducer(s, { type: 'caught-up', messages: range(11, 20), nextCursor: 'c10' });
    expect(s.history).toBe('ready');
    expect(s.historyError).toBeNull();
    expect(texts(s)).toEqual(range(11, 20).map((m) => m.content));
    expect(s.cursor).toBe('c10');
  });

  it('the connection state and why it is down', () => {
    const s = run({
      type: 'connection',
      connection: 'offline',
      error: 'Session ended.',
    });
    expect(s).toMatchObject({ connection: 'offline', connectionError: 'Session ended.' });
    expect(chatReducer(s, { type: 'connection', connection: 'connected' }).connectionError).toBe(
      null,
    );
  });
});
