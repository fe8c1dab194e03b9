import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  findMarkup,
  imageTypeOfExtension,
  SNIFF_BYTES,
  sniffImage,
  trailingBytes,
} from '../../src/image';

/** Real encoder output (sharp), so the headers are what browsers and cameras write. */
const images: Record<'png' | 'jpeg' | 'gif' | 'webp', Buffer> = {} as never;
let largeJpeg: Buffer;

beforeAll(async () => {
  const solid = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: '#2a7' } });
  [images.png, images.jpeg, images.gif, images.webp] = await Promise.all([
    solid(200, 100).png().toBuffer(),
    solid(40, 30).jpeg().toBuffer(),
    solid(64, 64).gif().toBuffer(),
    solid(120, 80).webp().toBuffer(),
  ]);
  largeJpeg = await sharp({
    create: {
      width: 1200,
      height: 800,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 92 })
    .toBuffer();
});

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
const TEXT = Buffer.from('hello, I am definitely a picture\n');
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n%%EOF\n');

describe('sniffImage', () => {
  it.each([
    ['png', 'image/png', 'png'],
    ['jpeg', 'image/jpeg', 'jpg'],
    ['gif', 'image/gif', 'gif'],
    ['webp', 'image/webp', 'webp'],
  ] as const)(
    'types a real %s by its content, with content type and extension',
    (kind, contentType, ext) => {
      expect(sniffImage(images[kind])).toEqual({ kind, contentType, ext });
    },
  );

  it('types a large photo-like JPEG', () => {
    expect(sniffImage(largeJpeg)?.kind).toBe('jpeg');
  });

  it(`decides from the first SNIFF_BYTES (${SNIFF_BYTES}) bytes, as a stream is read`, () => {
    for (const [kind, bytes] of Object.entries(images)) {
      expect(sniffImage(bytes.subarray(0, SNIFF_BYTES))?.kind, kind).toBe(kind);
    }
  });

  it('accepts GIF87a and lossless / extended WebP', () => {
    const gif87 = Buffer.concat([Buffer.from('GIF87a'), images.gif.subarray(6)]);
    expect(sniffImage(gif87)?.kind).toBe('gif');
    for (const chunk of ['VP8L', 'VP8X']) {
      const webp = Buffer.from(images.webp);
      webp.write(chunk, 12, 'latin1');
      expect(sniffImage(webp)?.kind).toBe('webp');
    }
  });

  it.each([
    ['text', TEXT],
    ['svg', SVG],
    ['html', HTML],
    ['pdf', PDF],
    ['empty', Buffer.alloc(0)],
    ['zeros', Buffer.alloc(64)],
  ])('refuses %s', (_name, bytes) => {
    expect(sniffImage(bytes)).toBeNull();
  });

  it('refuses an SVG even with leading whitespace or an XML declaration', () => {
    expect(sniffImage(Buffer.from(`<?xml version="1.0"?>\n${SVG.toString()}`))).toBeNull();
    expect(sniffImage(Buffer.from(`   ${SVG.toString()}`))).toBeNull();
  });

  it.each([
    ['png signature only', () => images.png.subarray(0, 8)],
    ['png cut in IHDR', () => images.png.subarray(0, 12)],
    ['bare jpeg signature', () => images.jpeg.subarray(0, 3)],
    ['jpeg cut', () => images.jpeg.subarray(0, 8)],
    ['jpeg with a bad marker', () => Buffer.from([0xff, 0xd8, 0xff, 0x00, 1, 2, 3, 4, 5, 6, 7, 8])],
    ['gif header only', () => images.gif.subarray(0, 6)],
    ['webp RIFF header only', () => images.webp.subarray(0, 12)],
    ['webp cut in chunk header', () => images.webp.subarray(0, 15)],
  ])('refuses a truncated or broken header: %s', (_name, bytes) => {
    expect(sniffImage(bytes())).toBeNull();
  });

  it('refuses a RIFF file that is not WebP (e.g. WAV) and a WebP with an unknown chunk', () => {
    const wav = Buffer.from(images.webp);
    wav.write('WAVE', 8, 'latin1');
    expect(sniffImage(wav)).toBeNull();
    const unknown = Buffer.from(images.webp);
    unknown.write('XXXX', 12, 'latin1');
    expect(sniffImage(unknown)).toBeNull();
  });

  it('goes by the first bytes only: an image after some text is not an image', () => {
    expect(sniffImage(Buffer.concat([TEXT, images.png]))).toBeNull();
  });
});

describe('imageTypeOfExtension', () => {
  it('maps the extensions of stored keys back to types', () => {
    expect(imageTypeOfExtension('jpg')?.contentType).toBe('image/jpeg');
    expect(imageTypeOfExtension('webp')?.kind).toBe('webp');
    expect(imageTypeOfExtension('jpeg')).toBeNull();
    expect(imageTypeOfExtension('svg')).toBeNull();
  });
});

describe('trailingBytes', () => {
  it.each(['png', 'gif', 'webp', 'jpeg'] as const)('is 0 for a real %s', (kind) => {
    expect(trailingBytes(images[kind], kind)).toBe(0);
  });

  it.each(['png', 'gif', 'webp'] as const)('counts what follows the end of a %s', (kind) => {
    const payload = Buffer.from('PK\u0003\u0004 an archive');
    expect(trailingBytes(Buffer.concat([images[kind], payload]), kind)).toBe(payload.length);
  });

  it('leaves a truncated image to the decoder, and does not check JPEG', () => {
    for (const kind of ['png', 'gif', 'webp'] as const) {
      const cut = images[kind].subarray(0, images[kind].length - 5);
      expect(trailingBytes(cut, kind), kind).toBe(0);
    }
    expect(trailingBytes(Buffer.concat([images.jpeg, images.jpeg]), 'jpeg')).toBe(0);
  });

  it('walks a GIF with a global colour table and extensions', async () => {
    const palette = await sharp({
      create: {
        width: 32,
        height: 32,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .gif()
      .toBuffer();
    expect(trailingBytes(palette, 'gif')).toBe(0);
    expect(trailingBytes(Buffer.concat([palette, Buffer.from([1, 2, 3])]), 'gif')).toBe(3);
  });
});

describe('findMarkup', () => {
  it.each([
    ['html', HTML],
    ['svg', SVG],
    ['script tag in any case', Buffer.from('junk <ScRiPt src=x>')],
    ['php', Buffer.from('GIF89a<?php system($_GET[0]); ?>')],
    ['xhtml namespace', Buffer.from('xmlns="http://www.w3.org/1999/xhtml"')],
    ['javascript url', Buffer.from('href=javascript:alert(1)')],
  ])('finds %s', (_name, bytes) => {
    expect(findMarkup(bytes)).not.toBeNull();
  });

  it('finds nothing in real images, large noisy ones included', () => {
    for (const bytes of [...Object.values(images), largeJpeg]) expect(findMarkup(bytes)).toBeNull();
    expect(findMarkup(TEXT)).toBeNull();
  });
});
