import { describe, expect, it } from 'vitest';
import { sniffImage } from '../../src/domain/image';
import { gif, HTML, largeJpeg, png, SVG, TEXT, webp } from '../fixtures';

describe('sniffImage', () => {
  it('types real images by content', async () => {
    expect(sniffImage(await png())?.kind).toBe('png');
    expect(sniffImage(await largeJpeg(40, 30))?.kind).toBe('jpeg');
    expect(sniffImage(await webp())?.kind).toBe('webp');
    expect(sniffImage(await gif())?.kind).toBe('gif');
  });

  it('gives content types and storage extensions', async () => {
    expect(sniffImage(await largeJpeg(40, 30))).toEqual({
      kind: 'jpeg',
      ext: 'jpg',
      contentType: 'image/jpeg',
    });
  });

  it.each([
    ['svg', SVG],
    ['html', HTML],
    ['text', TEXT],
    ['empty', Buffer.alloc(0)],
    ['pdf', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n')],
    ['bare jpeg signature', Buffer.from([0xff, 0xd8, 0xff])],
    ['jpeg with a bad marker', Buffer.from([0xff, 0xd8, 0xff, 0x00, 1, 2, 3, 4, 5, 6, 7, 8])],
    ['png signature only', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['riff that is not webp', Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt \x00\x00\x00\x00')],
    ['webp with an unknown chunk', Buffer.from('RIFF\x00\x00\x00\x00WEBPXXXX\x00\x00\x00\x00')],
    ['gif header only', Buffer.from('GIF89a')],
  ])('refuses %s', (_name, bytes) => {
    expect(sniffImage(bytes)).toBeNull();
  });

  it('refuses an SVG even with leading whitespace or an XML declaration', () => {
    expect(sniffImage(Buffer.from(`<?xml version="1.0"?>\n${SVG.toString()}`))).toBeNull();
    expect(sniffImage(Buffer.from(`   ${SVG.toString()}`))).toBeNull();
  });
});
