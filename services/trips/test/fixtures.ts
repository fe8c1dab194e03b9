import sharp from 'sharp';

/** A solid-colour PNG of the given size. */
export function png(width = 200, height = 100): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#2a7' } })
    .png()
    .toBuffer();
}

/** A noisy JPEG (noise compresses badly, so the file is large: ~3 MB at 3000x2000). */
export function largeJpeg(width = 3000, height = 2000): Promise<Buffer> {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A JPEG stored sideways: 400x200 pixels with EXIF orientation 6 (shown 200x400), and EXIF. */
export function sidewaysJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 200, channels: 3, background: '#c33' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Copyright: 'exif-marker-owner' } })
    .toBuffer();
}

export function webp(width = 120, height = 80): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#36c' } })
    .webp()
    .toBuffer();
}

export function gif(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#fc0' } })
    .gif()
    .toBuffer();
}

export const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
);
export const TEXT = Buffer.from('hello, I am definitely a photo\n');
export const HTML = Buffer.from(
  '<!doctype html><html><body><script>alert(1)</script></body></html>',
);

/**
 * A GPX track of `points` timed points, one a minute from 1 May 2024 (~84 bytes each: 42,000
 * make some 3.5 MiB, a parse of seconds).
 */
export function trackGpx(points: number): Buffer {
  const start = Date.parse('2024-05-01T06:00:00Z');
  const lines = ['<?xml version="1.0"?>', '<gpx version="1.1" creator="test">', '<trk><trkseg>'];
  for (let i = 0; i < points; i++) {
    const at = new Date(start + i * 60_000).toISOString();
    const [lat, lon] = [(45 + i / 1e5).toFixed(6), (6 + i / 1e5).toFixed(6)];
    lines.push(`<trkpt lat="${lat}" lon="${lon}"><time>${at}</time></trkpt>`);
  }
  return Buffer.from([...lines, '</trkseg></trk></gpx>'].join('\n'));
}
