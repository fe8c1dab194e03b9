import { describe, expect, it } from 'vitest';
import {
  isShareToken,
  SHARE_TOKEN_BYTES,
  ShareLimits,
  ShareMessages,
  SharePaths,
  SharedTrip,
} from '@wayfarer/contracts';
import { mayRead, readAccess } from '../../src/domain/access';
import { InvalidTripError, NotFoundError } from '../../src/domain/errors';
import {
  checkSharedLink,
  isLinkLive,
  linkExpiry,
  newShareLink,
  sharedTokenHash,
  shareToken,
  shareTokenHash,
  toApiShareLink,
  toSharedTrip,
  type ShareLinkDoc,
} from '../../src/domain/share';
import { newTripDoc } from '../../src/domain/trip';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

describe('who may read a trip (domain/access.ts)', () => {
  const trip = (visibility: 'friends' | 'private') => ({ ownerId: 'owner', visibility });

  it('the owner always; a friend only when the trip is friends; anyone else never', () => {
    for (const v of ['friends', 'private'] as const) {
      expect(readAccess(trip(v), 'owner')).toBe('granted');
      expect(mayRead(trip(v), 'owner', false)).toBe(true);
      expect(mayRead(trip(v), 'stranger', false)).toBe(false);
    }
    expect(readAccess(trip('friends'), 'friend')).toBe('if-friend');
    expect(mayRead(trip('friends'), 'friend', true)).toBe(true);
    expect(readAccess(trip('private'), 'friend')).toBe('denied');
    expect(mayRead(trip('private'), 'friend', true)).toBe(false);
  });
});

describe('share links (domain/share.ts)', () => {
  const token = shareToken(new Uint8Array(SHARE_TOKEN_BYTES).fill(250));

  it('a token is base64url of SHARE_TOKEN_BYTES bytes, in the contracts shape; found by its SHA-256', () => {
    expect(isShareToken(token)).toBe(true);
    expect(Buffer.from(token, 'base64url')).toHaveLength(SHARE_TOKEN_BYTES);
    expect(shareTokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(shareTokenHash(token)).not.toBe(shareTokenHash(`${token.slice(0, -1)}A`));
    expect(sharedTokenHash(token)).toBe(shareTokenHash(token));
    for (const bad of ['', 'abc', `${token}=`, `${token.slice(0, -1)}+`, `${token}A`]) {
      expect(() => sharedTokenHash(bad)).toThrow(NotFoundError);
    }
  });

  it('expiry: none, or in the future and within the limit', () => {
    expect(linkExpiry(undefined, NOW)).toBeNull();
    expect(linkExpiry(null, NOW)).toBeNull();
    const soon = new Date(NOW.getTime() + 1000);
    expect(linkExpiry(soon.toISOString(), NOW)).toEqual(soon);
    const edge = new Date(NOW.getTime() + ShareLimits.maxExpiryDays * DAY);
    expect(linkExpiry(edge.toISOString(), NOW)).toEqual(edge);
    const refused = (at: Date) => {
      try {
        linkExpiry(at.toISOString(), NOW);
      } catch (err) {
        expect(err).toBeInstanceOf(InvalidTripError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused(NOW)).toBe(ShareMessages.expiryInPast);
    expect(refused(new Date(NOW.getTime() - DAY))).toBe(ShareMessages.expiryInPast);
    expect(refused(new Date(edge.getTime() + 1))).toBe(ShareMessages.expiryTooFar);
  });

  const link = (expiresAt: Date | null): ShareLinkDoc =>
    newShareLink({
      token,
      input: { includeStories: false, allowIndexing: false },
      expiresAt,
      now: NOW,
    });

  it('live until its expiry (exclusive), forever without one', () => {
    expect(isLinkLive(link(null), new Date(NOW.getTime() + 1000 * DAY))).toBe(true);
    const at = new Date(NOW.getTime() + DAY);
    expect(isLinkLive(link(at), new Date(at.getTime() - 1))).toBe(true);
    expect(isLinkLive(link(at), at)).toBe(false);
  });

  it('the owner sees the token, the page URL and the choices', () => {
    const doc = link(new Date(NOW.getTime() + DAY));
    expect(doc.tokenHash).toBe(shareTokenHash(token));
    expect(toApiShareLink(doc)).toEqual({
      token,
      url: SharePaths.page(token),
      createdAt: NOW.toISOString(),
      expiresAt: new Date(NOW.getTime() + DAY).toISOString(),
      includeStories: false,
      allowIndexing: false,
    });
  });

  it('one check for a visitor: a live trip holding a live link of that hash', () => {
    const hash = shareTokenHash(token);
    const trip = { _id: 't'.repeat(24), deletedAt: null, share: link(null) };
    expect(checkSharedLink(trip, hash, NOW)).toEqual({ trip, link: trip.share });
    const gone = (found: Parameters<typeof checkSharedLink>[0], tokenHash = hash) =>
      expect(() => checkSharedLink(found, tokenHash, NOW)).toThrow(NotFoundError);
    gone(null);
    gone({ deletedAt: null });
    gone({ ...trip, deletedAt: NOW });
    gone({ ...trip, share: link(NOW) });
    gone(trip, shareTokenHash(`${token.slice(0, -1)}A`));
  });

  it('what a visitor sees: no owner, no trip id, stories and journals only when chosen', () => {
    const trip = newTripDoc({
      id: 't'.repeat(24),
      ownerId: 'owner-secret',
      input: {
        visibility: 'private',
        name: 'Trip',
        startDate: '2026-01-01',
        endDate: '2026-01-05',
        destinations: [
          {
            name: 'A',
            latitude: 1,
            longitude: 2,
            startDate: '2026-01-01',
            endDate: '2026-01-02',
            story: 'Story A',
          },
          {
            name: 'B',
            latitude: 3,
            longitude: 4,
            startDate: '2026-01-03',
            endDate: '2026-01-05',
            story: '',
          },
        ],
      },
      destinationIds: ['d'.repeat(24), 'e'.repeat(24)],
      photos: [
        [
          {
            id: 'p'.repeat(32),
            original: { key: 'k/o', contentType: 'image/png', bytes: 1 },
            display: null,
          },
        ],
        [],
      ],
      now: NOW,
    });
    const shared = { ...trip, stories: { ['d'.repeat(24)]: { content: 'Journal A' } } };
    const without = toSharedTrip(shared, link(null));
    expect(SharedTrip.parse(without)).toEqual(without);
    expect(JSON.stringify(without)).not.toMatch(/owner-secret|tttt|Story A|Journal A|k\/o/);
    expect(without.destinations[0]!.photos).toEqual([SharePaths.photo(token, 'p'.repeat(32))]);
    expect(without.destinations.every((d) => !('story' in d) && !('journal' in d))).toBe(true);

    const withStories = toSharedTrip(shared, { ...link(null), includeStories: true });
    expect(withStories.destinations.map((d) => [d.story, d.journal])).toEqual([
      ['Story A', 'Journal A'],
      ['', ''],
    ]);
  });
});
