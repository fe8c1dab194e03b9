import { describe, expect, it } from 'vitest';
import { storyPreview } from '../src';

describe('storyPreview counts code points, not UTF-16 units', () => {
  it('keeps a story of exactly the limit in code points whole, however many units it takes', () => {
    const emoji = '\u{1F3D4}'; // two UTF-16 units
    expect(storyPreview(emoji.repeat(100))).toBe(emoji.repeat(100));
    expect(storyPreview(emoji.repeat(101))).toBe(`${emoji.repeat(100)}...`);
  });

  it('never cuts a surrogate pair in half', () => {
    const story = `${'a'.repeat(99)}\u{1F30B}tail`;
    expect(storyPreview(story)).toBe(`${'a'.repeat(99)}\u{1F30B}...`);
    expect(storyPreview('abcdef', 3)).toBe('abc...');
    expect(storyPreview('abc', 3)).toBe('abc');
  });
});
