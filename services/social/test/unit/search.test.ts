import { describe, expect, it } from 'vitest';
import { SocialLimits } from '@wayfarer/contracts';
import { containsPattern, readSearchQuery, searchKey } from '../../src/domain/search';
import { decideAddFriend } from '../../src/domain/requests';

describe('searchKey', () => {
  it('drops case and accents', () => {
    expect(searchKey('Zoë ÅNGSTRÖM')).toBe('zoe angstrom');
    expect(searchKey('Çelik Ñandú')).toBe('celik nandu');
    expect(searchKey('ﬁnn')).toBe('finn');
  });
});

describe('containsPattern', () => {
  it('escapes LIKE wildcards and the escape character', () => {
    expect(containsPattern('100%')).toBe('%100\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
    expect(containsPattern('(.*)+')).toBe('%(.*)+%');
  });
});

describe('readSearchQuery', () => {
  it('ignores a blank query and refuses one past the limit', () => {
    expect(readSearchQuery(undefined)).toEqual({ kind: 'empty' });
    expect(readSearchQuery('   ')).toEqual({ kind: 'empty' });
    expect(readSearchQuery('x'.repeat(SocialLimits.searchQueryMax)).kind).toBe('search');
    expect(readSearchQuery('x'.repeat(SocialLimits.searchQueryMax + 1)).kind).toBe('tooLong');
    expect(readSearchQuery(' Zoë ')).toEqual({ kind: 'search', pattern: '%zoe%' });
  });
});

describe('decideAddFriend', () => {
  const state = { targetExists: true, friends: false, requested: false, requestedBy: false };
  it('refuses yourself, unknown users and friends; befriends a crossed request', () => {
    expect(decideAddFriend('a', 'a', state)).toEqual({ kind: 'refuse', reason: 'yourself' });
    expect(decideAddFriend('a', 'b', { ...state, targetExists: false }).kind).toBe('refuse');
    expect(decideAddFriend('a', 'b', { ...state, friends: true })).toEqual({
      kind: 'refuse',
      reason: 'alreadyFriends',
    });
    expect(decideAddFriend('a', 'b', { ...state, requestedBy: true }).kind).toBe('befriend');
    expect(decideAddFriend('a', 'b', { ...state, requested: true }).kind).toBe('alreadyRequested');
    expect(decideAddFriend('a', 'b', state).kind).toBe('request');
  });
});
