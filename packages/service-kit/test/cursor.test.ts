import { describe, expect, it } from 'vitest';
import { decodeTimeCursor, encodeTimeCursor, pageLimitParam } from '../src/cursor';

describe('time cursor', () => {
  it('gives back the time and id it was made of', () => {
    const at = new Date('2026-05-01T10:11:12.345Z');
    const cursor = encodeTimeCursor({ at, id: 'a-1' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeTimeCursor(cursor)).toEqual({ at, id: 'a-1' });
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'a+b/c='],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['another shape', Buffer.from(JSON.stringify({ after: 'x' })).toString('base64url')],
    ['a bad time', Buffer.from(JSON.stringify({ at: 'yesterday', id: 'x' })).toString('base64url')],
    [
      'an extra field',
      Buffer.from(JSON.stringify({ at: new Date().toISOString(), id: 'x', n: 1 })).toString(
        'base64url',
      ),
    ],
    ['too long', 'A'.repeat(401)],
  ])('refuses %s', (_, cursor) => {
    expect(decodeTimeCursor(cursor)).toBeNull();
  });
});

describe('page limit parameter', () => {
  const limit = pageLimitParam(50, 'bad limit');
  it('takes 1 to max, or nothing', () => {
    expect(limit.parse('1')).toBe(1);
    expect(limit.parse('50')).toBe(50);
    expect(limit.parse(undefined)).toBeUndefined();
  });
  it.each(['0', '51', '-1', '1.5', 'ten', '', '00001'])('refuses %j with the message', (v) => {
    const result = limit.safeParse(v);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('bad limit');
  });
});
