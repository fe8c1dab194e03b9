import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineEvent,
  EventEnvelope,
  LoginBody,
  makeEvent,
  parseEnvelope,
  readEvent,
  RegisterFields,
  Topics,
  UserRegistered,
} from '../src';

/** Another event type on the same topic. */
const OtherUserEvent = defineEvent({
  topic: Topics.authUser,
  type: 'user.other',
  version: 1,
  payload: z.object({ userId: z.string() }),
});

describe('auth payloads', () => {
  it('normalises email and rejects bad registration fields', () => {
    expect(
      RegisterFields.parse({ name: ' Ann ', email: ' Ann@X.io ', password: 'longenough' }),
    ).toEqual({
      name: 'Ann',
      email: 'ann@x.io',
      password: 'longenough',
    });
    expect(
      RegisterFields.safeParse({ name: '', email: 'nope', password: 'short' }).error?.issues,
    ).toHaveLength(3);
    expect(LoginBody.safeParse({ email: 'a@b.co' }).success).toBe(false);
  });
});

describe('event envelope', () => {
  const payload = {
    userId: 'u1',
    name: 'Ann',
    email: 'ann@x.io',
    profilePicture: '/default-avatar.svg',
  };

  it('round-trips through Kafka bytes', () => {
    const event = makeEvent(UserRegistered, 'u1', payload, new Date('2026-01-01T00:00:00Z'));
    expect(EventEnvelope.safeParse(event).success).toBe(true);
    const back = parseEnvelope(Buffer.from(JSON.stringify(event)));
    expect(readEvent(UserRegistered, back)?.payload).toEqual(payload);
    expect(readEvent(OtherUserEvent, back)).toBeNull();
    expect(back.occurredAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('refuses a payload that does not match its schema, and junk bytes', () => {
    expect(() => makeEvent(UserRegistered, 'u1', { userId: 'u1' } as never)).toThrow();
    expect(() => parseEnvelope(Buffer.from('{"id":"x"}'))).toThrow();
    expect(() => parseEnvelope(null)).toThrow();
  });
});

describe('trips', () => {
  it('cuts a story preview at 100 characters with an ellipsis', async () => {
    const { storyPreview } = await import('../src');
    expect(storyPreview('short')).toBe('short');
    expect(storyPreview('x'.repeat(100))).toBe('x'.repeat(100));
    expect(storyPreview('y'.repeat(101))).toBe(`${'y'.repeat(100)}...`);
  });

  it('validates destination coordinates and dates', async () => {
    const { DestinationInput } = await import('../src');
    const ok = DestinationInput.parse({
      name: 'Paris',
      startDate: '2026-05-01',
      endDate: '2026-05-03T00:00:00.000Z',
      latitude: '48.85',
      longitude: '2.35',
    });
    expect(ok).toMatchObject({ latitude: 48.85, endDate: '2026-05-03', story: '' });
    expect(DestinationInput.safeParse({ ...ok, latitude: 91 }).success).toBe(false);
    expect(DestinationInput.safeParse({ ...ok, startDate: '2026-13-45' }).success).toBe(false);
  });

  it.each([
    '2026-02-30',
    '2025-02-29',
    '2026-04-31',
    '2026-00-10',
    '2026-06-00',
    '2026-02-30T10:00:00Z',
  ])('refuses the impossible date %s', async (date) => {
    const { DateOnly, isCalendarDate } = await import('../src');
    expect(isCalendarDate(date)).toBe(false);
    const result = DateOnly.safeParse(date);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('must be a real date');
  });

  it.each(['2024-02-29', '2026-12-31', '0001-01-01', '2026-03-01T23:59:59.999+02:00'])(
    'accepts the calendar date %s',
    async (date) => {
      const { DateOnly } = await import('../src');
      expect(DateOnly.parse(date)).toBe(date.slice(0, 10));
    },
  );

  it('refuses a date followed by anything but an ISO time', async () => {
    const { DateOnly } = await import('../src');
    expect(DateOnly.safeParse('2026-01-01Tjunk').success).toBe(false);
    expect(DateOnly.safeParse('2026-01-01 ').success).toBe(true);
  });

  it.each([
    '0x10',
    '0b1',
    '0o7',
    '1e1',
    'Infinity',
    '-Infinity',
    'NaN',
    '',
    ' ',
    '12,5',
    '1_0',
    '--1',
    '1.2.3',
  ])('refuses the coordinate text %j (not a plain decimal)', async (text) => {
    const { Latitude, Longitude, isDecimalNumber } = await import('../src');
    expect(isDecimalNumber(text)).toBe(false);
    expect(Latitude.safeParse(text).success).toBe(false);
    expect(Longitude.safeParse(text).success).toBe(false);
  });

  it('reads plain decimals and numbers as coordinates, within their ranges', async () => {
    const { Latitude, Longitude } = await import('../src');
    expect(Latitude.parse(' -12.5 ')).toBe(-12.5);
    expect(Latitude.parse('+90')).toBe(90);
    expect(Latitude.parse('.5')).toBe(0.5);
    expect(Latitude.parse('10.')).toBe(10);
    expect(Latitude.parse(48.85)).toBe(48.85);
    expect(Longitude.parse('-180')).toBe(-180);
    expect(Latitude.safeParse('90.0001').success).toBe(false);
    expect(Longitude.safeParse(180.5).success).toBe(false);
    expect(Latitude.safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
    expect(Latitude.safeParse('0x10').error?.issues[0]?.message).toBe('must be a decimal number');
  });

  it('names a friendship by the sorted pair', async () => {
    const { friendshipId } = await import('../src');
    expect(friendshipId('b', 'a')).toBe('a_b');
  });
});
