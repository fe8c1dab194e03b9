import { describe, expect, it } from 'vitest';
import { ChatLimits, ChatMessages, roomIdOf, SendMessage, usersOfRoom } from '@wayfarer/contracts';
import {
  allowSend,
  checkText,
  decodeCursor,
  encodeCursor,
  payloadError,
  roomOfCaller,
  roomOfMessage,
} from '../../src/domain/messages';

describe('chat rules', () => {
  it('names the field of a payload that is not plain text, else says the message is invalid', () => {
    const refused = (payload: unknown) => payloadError(SendMessage.safeParse(payload).error!);
    expect(refused({ to: 'b', text: 'a\u0000' })).toBe(
      'text: must not contain control characters (only tabs and line breaks are): found U+0000 at position 2.',
    );
    expect(refused({ to: 'b\u007f', text: 'a' })).toMatch(/^to: must not contain control/);
    expect(refused({ text: 'no to' })).toBe(ChatMessages.badPayload);
    expect(refused('text')).toBe(ChatMessages.badPayload);
    expect(roomOfCaller('a', 'a_b\u0000')).toEqual({ ok: false, error: ChatMessages.badRoom });
  });

  it('trims text and refuses empty, whitespace-only and oversized text', () => {
    expect(checkText('  hi  ')).toEqual({ ok: true, text: 'hi' });
    expect(checkText(' \n ')).toEqual({ ok: false, error: ChatMessages.emptyText });
    expect(checkText('x'.repeat(ChatLimits.textMax + 1))).toEqual({
      ok: false,
      error: ChatMessages.textTooLong,
    });
    expect(checkText('😀'.repeat(ChatLimits.textMax)).ok).toBe(true);
    expect(checkText(42)).toEqual({ ok: false, error: ChatMessages.badPayload });
  });

  it('lets a user only into a room of its own id and another', () => {
    expect(roomIdOf('b', 'a')).toBe('a_b');
    expect(usersOfRoom('b_a')).toBeNull();
    expect(usersOfRoom('a_a')).toBeNull();
    expect(roomOfCaller('a', 'a_b')).toEqual({ ok: true, roomId: 'a_b', otherId: 'b' });
    expect(roomOfCaller('c', 'a_b')).toEqual({ ok: false, error: ChatMessages.notInRoom });
    expect(roomOfCaller('a', 'a_b_c')).toEqual({ ok: false, error: ChatMessages.badRoom });
    expect(roomOfMessage('a', 'a').ok).toBe(false);
    expect(roomOfMessage('a', 'x_y').ok).toBe(false);
  });

  it('allows rateMessages sends per window, then again once the window moved on', () => {
    const sent: number[] = [];
    const limits = { rateMessages: 2, rateWindowMs: 1000 };
    expect(allowSend(sent, 0, limits)).toBe(true);
    expect(allowSend(sent, 10, limits)).toBe(true);
    expect(allowSend(sent, 20, limits)).toBe(false);
    expect(allowSend(sent, 1000, limits)).toBe(true);
  });

  it('round-trips a cursor and refuses a malformed one', () => {
    const c = { timestampMs: 1234, id: 'a'.repeat(24) };
    expect(decodeCursor(encodeCursor(c))).toEqual(c);
    expect(decodeCursor('1234-zz')).toBeNull();
  });
});
