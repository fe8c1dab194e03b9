import { describe, expect, it } from 'vitest';
import { sectionFor } from './sections';

describe('sectionFor', () => {
  it('maps trip pages to Trips', () => {
    for (const p of ['/', '/trips', '/trip/abc123', '/trip/abc123/edit', '/addTrip'])
      expect(sectionFor(p), p).toBe('trips');
  });

  it('maps the bucket list', () => {
    expect(sectionFor('/bucketlist')).toBe('bucketlist');
  });

  it('maps friends, adding friends and chat to Friends', () => {
    for (const p of ['/friends', '/addFriends', '/messages/42'])
      expect(sectionFor(p), p).toBe('friends');
  });

  it('returns null for anything else', () => {
    expect(sectionFor('/home')).toBeNull();
  });
});
