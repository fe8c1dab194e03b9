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

  it('names a friendship by the sorted pair', async () => {
    const { friendshipId } = await import('../src');
    expect(friendshipId('b', 'a')).toBe('a_b');
  });
});
