import { describe, expect, it } from 'vitest';
import type { SharedTrip } from '@wayfarer/contracts';
import { escapeHtml, renderSharePage, shareDescription, shareHeadTags } from '../src/share-head';

const trip = (names: string[], photos: string[][] = []): SharedTrip => ({
  name: 'Trip',
  startDate: '2026-05-01',
  endDate: '2026-05-01',
  includeStories: false,
  allowIndexing: false,
  expiresAt: null,
  destinations: names.map((name, i) => ({
    _id: `d${i}`,
    name,
    latitude: 0,
    longitude: 0,
    startDate: '2026-05-01',
    endDate: '2026-05-01',
    photos: photos[i] ?? [],
  })),
});

describe("the share page's head (pure)", () => {
  it('escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('describes one day once, and at most 8 places then how many more', () => {
    const names = Array.from({ length: 11 }, (_, i) => `P${i}`);
    expect(shareDescription(trip(names))).toBe(
      '1 May 2026 · P0, P1, P2, P3, P4, P5, P6, P7 and 3 more',
    );
    expect(shareDescription(trip([]))).toBe('1 May 2026');
  });

  it('names the first photo of the first destination that has one, absolute; none: no og:image', () => {
    const withPhoto = shareHeadTags({
      trip: trip(['A', 'B'], [[], ['/api/shared/t/photos/2', '/api/shared/t/photos/3']]),
      origin: 'https://w.example',
      pagePath: '/s/t',
    });
    expect(withPhoto).toContain(
      '<meta property="og:image" content="https://w.example/api/shared/t/photos/2" />',
    );
    const without = shareHeadTags({
      trip: trip(['A']),
      origin: 'https://w.example',
      pagePath: '/s/t',
    });
    expect(without.some((t) => t.includes('og:image'))).toBe(false);
    expect(without).toContain('<meta name="twitter:card" content="summary" />');
  });

  it('puts the tags in a page without a head, and a "$" in a name stays as it is', () => {
    const html = renderSharePage('<!doctype html><title>Wayfarer</title><p>x</p>', {
      trip: { ...trip(['A']), name: "$& $' $1" },
      origin: null,
      pagePath: '/s/t',
    });
    expect(html.startsWith('<!doctype html><meta name="robots" content="noindex" />')).toBe(true);
    expect(html).toContain('<title>$&amp; $&#39; $1 · Wayfarer</title>');
    expect(html).not.toContain('og:url');
  });
});
