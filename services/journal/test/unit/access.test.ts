import { describe, expect, it } from 'vitest';
import {
  DESTINATION_ID_PATTERN,
  readDecision,
  relationOf,
  writeDecision,
  type Relation,
} from '../../src/domain/access';

describe('relationOf', () => {
  it('is owner when the caller owns the destination, whatever the friendship says', () => {
    expect(relationOf({ userId: 'a', ownerId: 'a', friends: false })).toBe('owner');
    expect(relationOf({ userId: 'a', ownerId: 'a', friends: true })).toBe('owner');
  });
  it('is friend when the owner is a friend', () => {
    expect(relationOf({ userId: 'b', ownerId: 'a', friends: true })).toBe('friend');
  });
  it('is stranger otherwise', () => {
    expect(relationOf({ userId: 'c', ownerId: 'a', friends: false })).toBe('stranger');
  });
  it('is none when the destination is unknown', () => {
    expect(relationOf({ userId: 'a', ownerId: null, friends: true })).toBe('none');
  });
  it("makes a friend a stranger to a private trip's destination, never its owner", () => {
    expect(relationOf({ userId: 'b', ownerId: 'a', friends: true, visibility: 'private' })).toBe(
      'stranger',
    );
    expect(relationOf({ userId: 'a', ownerId: 'a', friends: false, visibility: 'private' })).toBe(
      'owner',
    );
    expect(relationOf({ userId: 'b', ownerId: 'a', friends: true, visibility: 'friends' })).toBe(
      'friend',
    );
    expect(relationOf({ userId: 'c', ownerId: 'a', friends: false, visibility: 'friends' })).toBe(
      'stranger',
    );
  });
});

describe('decisions', () => {
  const table: [Relation, string, string][] = [
    ['owner', 'allow', 'allow'],
    ['friend', 'allow', 'forbidden'],
    ['stranger', 'not_found', 'not_found'],
    ['none', 'not_found', 'not_found'],
  ];
  it.each(table)('%s: read %s, write %s', (relation, read, write) => {
    expect(readDecision(relation)).toBe(read);
    expect(writeDecision(relation)).toBe(write);
  });
});

describe('DESTINATION_ID_PATTERN', () => {
  const isDestinationId = (value: string) => DESTINATION_ID_PATTERN.test(value);
  it('accepts ObjectId hex and UUIDs', () => {
    expect(isDestinationId('65f1c0ffee00112233445566')).toBe(true);
    expect(isDestinationId('0b5e7f9a-3c1d-4e2f-8a9b-112233445566')).toBe(true);
  });
  it('refuses empty, too long and odd characters', () => {
    for (const bad of ['', 'x'.repeat(101), '$ne', 'a.b', '../x', 'a b', 'ü', 'a/b']) {
      expect(isDestinationId(bad), bad).toBe(false);
    }
    expect(isDestinationId('x'.repeat(100))).toBe(true);
  });
});
