import { describe, expect, it } from 'vitest';
import { imageTypeOfExtension, sniffImage } from '../../src/domain/image';
import { GIF, JPEG, PDF, PNG, SVG, TEXT, WEBP } from '../fixtures';

describe('sniffImage', () => {
  it.each([
    ['png', PNG, 'image/png', 'png'],
    ['jpeg', JPEG, 'image/jpeg', 'jpg'],
    ['gif', GIF, 'image/gif', 'gif'],
    ['webp', WEBP, 'image/webp', 'webp'],
  ])('accepts %s by its content', (kind, bytes, contentType, ext) => {
    expect(sniffImage(bytes)).toEqual({ kind, contentType, ext });
  });

  it('accepts GIF87a and lossless / extended WebP', () => {
    const gif87 = Buffer.concat([Buffer.from('GIF87a'), GIF.subarray(6)]);
    expect(sniffImage(gif87)?.kind).toBe('gif');
    for (const chunk of ['VP8L', 'VP8X']) {
      const webp = Buffer.from(WEBP);
      webp.write(chunk, 12, 'latin1');
      expect(sniffImage(webp)?.kind).toBe('webp');
    }
  });

  it.each([
    ['text', TEXT],
    ['svg', SVG],
    ['pdf', PDF],
    ['empty', Buffer.alloc(0)],
    ['html', Buffer.from('<!doctype html><html><body>hi</body></html>')],
    ['zeros', Buffer.alloc(64)],
  ])('rejects %s', (_name, bytes) => {
    expect(sniffImage(bytes)).toBeNull();
  });

  it.each([
    ['png signature only', PNG.subarray(0, 8)],
    ['png cut in IHDR', PNG.subarray(0, 12)],
    ['jpeg SOI only', JPEG.subarray(0, 3)],
    ['jpeg cut', JPEG.subarray(0, 8)],
    ['gif header only', GIF.subarray(0, 6)],
    ['webp RIFF header only', WEBP.subarray(0, 12)],
    ['webp cut in chunk header', WEBP.subarray(0, 15)],
  ])('rejects a truncated header: %s', (_name, bytes) => {
    expect(sniffImage(bytes)).toBeNull();
  });

  it('rejects a RIFF file that is not WebP (e.g. WAV)', () => {
    const wav = Buffer.from(WEBP);
    wav.write('WAVE', 8, 'latin1');
    expect(sniffImage(wav)).toBeNull();
  });

  it('does not care about a misleading declared name: content decides', () => {
    expect(sniffImage(Buffer.concat([TEXT, PNG]))).toBeNull();
  });

  it('maps stored extensions back to types', () => {
    expect(imageTypeOfExtension('jpg')?.contentType).toBe('image/jpeg');
    expect(imageTypeOfExtension('svg')).toBeNull();
  });
});
