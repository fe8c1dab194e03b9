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

  it('maps friends and adding friends to Friends', () => {
    for (const p of ['/friends', '/addFriends']) expect(sectionFor(p), p).toBe('friends');
  });

  it('maps the inbox and a chat to Messages, the feed to Feed', () => {
    for (const p of ['/messages', '/messages/42']) expect(sectionFor(p), p).toBe('messages');
    expect(sectionFor('/feed')).toBe('feed');
  });

  it('maps the atlas', () => {
    expect(sectionFor('/atlas')).toBe('atlas');
  });

  it('returns null for anything else', () => {
    expect(sectionFor('/home')).toBeNull();
  });
});
