import { describe, expect, it } from 'vitest';
import { CLIP_HEIGHT, CLIP_SLUGS, CLIP_WIDTH, FEATURES, SLOGANS, clipSources } from './content';

describe('landing content', () => {
  it('has six features in the clip order, one clip each', () => {
    expect(FEATURES.map((f) => f.slug)).toEqual([
      'map',
      'stories',
      'friends',
      'create-trip',
      'bucket-list',
      'chat',
    ]);
    expect(FEATURES.map((f) => f.slug)).toEqual([...CLIP_SLUGS]);
    for (const feature of FEATURES) {
      expect(feature.title.trim()).not.toBe('');
      expect(feature.text.trim()).not.toBe('');
      expect(feature.clipLabel).toMatch(/^Screen recording: .+\.$/);
    }
  });

  it('serves each clip as WebM, MP4 and a JPEG poster under /clips, 16:10', () => {
    expect(clipSources('create-trip')).toEqual({
      webm: '/clips/create-trip.webm',
      mp4: '/clips/create-trip.mp4',
      poster: '/clips/create-trip.jpg',
    });
    expect(CLIP_WIDTH / CLIP_HEIGHT).toBe(16 / 10);
  });

  it('puts the two slogans between groups of features', () => {
    expect(SLOGANS.map((s) => s.after)).toEqual([2, 4]);
    for (const slogan of SLOGANS) expect(slogan.after).toBeLessThan(FEATURES.length);
  });
});
