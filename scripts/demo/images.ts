import sharp from 'sharp';
import type { Scene } from './data';

/**
 * Generated pictures for the demo data: landscape-like JPEG photos (sky gradient, a sun with its
 * glow, ridges or skyline or dunes by the scene's kind, water with reflections, film grain) and
 * round gradient avatars. Deterministic per seed, so a re-run makes the same images.
 */

export const PHOTO_WIDTH = 1600;
export const PHOTO_HEIGHT = 1067;

type Rgb = [number, number, number];

function hex(color: string): Rgb {
  const n = Number.parseInt(color.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];

/** A small seeded PRNG (mulberry32). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seedOf(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** A 1-D ridge line: sum of sines with random phases, `octaves` of them, roughly -1..1. */
function ridge(rand: () => number, octaves: number, base: number): (x: number) => number {
  const waves = Array.from({ length: octaves }, (_, i) => ({
    f: base * 2 ** i * (0.8 + rand() * 0.4),
    p: rand() * Math.PI * 2,
    a: 1 / 1.9 ** i,
  }));
  const norm = waves.reduce((s, w) => s + w.a, 0);
  return (x) => waves.reduce((s, w) => s + w.a * Math.sin(x * w.f + w.p), 0) / norm;
}

/** One landscape photo of `scene` as JPEG bytes (1600 x 1067), varied by `seed`. */
export async function landscapeJpeg(scene: Scene, seed: number): Promise<Buffer> {
  const W = PHOTO_WIDTH;
  const H = PHOTO_HEIGHT;
  const rand = random(seed);
  const skyTop = hex(scene.sky[0]);
  const skyLow = hex(scene.sky[1]);
  const ground = hex(scene.ground);
  const relief = hex(scene.relief);
  const horizon = Math.round(H * (0.55 + rand() * 0.1));
  const sunX = W * (scene.sun[1] + (rand() - 0.5) * 0.1);
  const sunY = horizon - horizon * scene.sun[0];
  const sunR = H * 0.045;
  const sunColor = mix(skyLow, [255, 248, 225], 0.8);
  const water = scene.kind === 'coast' || scene.kind === 'lake';

  // the silhouettes' heights above the horizon, per column, farthest layer first
  const layers = scene.kind === 'city' ? 1 : 3;
  const heights: Float32Array[] = [];
  for (let l = 0; l < layers; l++) {
    const line = new Float32Array(W);
    const near = l / Math.max(1, layers - 1);
    if (scene.kind === 'city') {
      let x = 0;
      while (x < W) {
        const w = 30 + rand() * 90;
        const h = H * (0.06 + rand() * rand() * 0.28);
        for (let i = Math.floor(x); i < Math.min(W, x + w); i++) line[i] = h;
        x += w + rand() * 6;
      }
    } else if (scene.kind === 'desert') {
      const f = ridge(rand, 3, 0.003 + near * 0.002);
      for (let x = 0; x < W; x++) line[x] = H * (0.05 + 0.06 * (1 - near)) * (1 + f(x));
    } else {
      const tall = scene.kind === 'mountains' ? 0.32 : 0.14;
      const f = ridge(rand, 6, 0.004 + near * 0.003);
      for (let x = 0; x < W; x++) {
        const v = f(x);
        line[x] =
          H * tall * (1 - near * 0.55) * Math.max(0.05, 0.55 + 0.45 * v + 0.15 * Math.abs(v));
      }
    }
    heights.push(line);
  }
  // on water, the land sits on one side of the frame (a shore), open sea elsewhere
  const shoreFrom = rand() < 0.5 ? 0 : W * 0.45;
  const shoreTo = shoreFrom + W * 0.55;
  const shore = (x: number) => {
    if (!water) return 1;
    const edge = Math.min(x - shoreFrom, shoreTo - x) / (W * 0.12);
    return Math.max(0, Math.min(1, edge));
  };

  const px = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let c: Rgb;
      if (y < horizon) {
        c = mix(skyTop, skyLow, (y / horizon) ** 1.4);
        const d = Math.hypot(x - sunX, y - sunY);
        if (d < sunR) c = sunColor;
        else c = mix(c, sunColor, 0.55 * Math.exp(-(d - sunR) / (H * 0.12)));
        // silhouettes over the sky, far ones faded into it (aerial perspective)
        for (let l = 0; l < layers; l++) {
          const top = horizon - heights[l]![x]! * shore(x);
          if (y >= top) {
            const haze = layers === 1 ? 0.15 : 0.6 * (1 - l / (layers - 1));
            const shade = 0.9 + 0.1 * ((horizon - y) / Math.max(1, heights[l]![x]!));
            c = mix(mix(relief, skyLow, haze), [0, 0, 0], 0.25 * (1 - shade));
          }
        }
        if (scene.kind === 'city' && y >= horizon - heights[0]![x]! && rand() < 0.004) {
          c = [255, 214, 150]; // a lit window
        }
      } else {
        const depth = (y - horizon) / (H - horizon);
        if (water) {
          c = mix(mix(ground, skyLow, 0.35), mix(ground, [0, 0, 0], 0.35), depth);
          // the sun's glitter path, broken by ripples
          const ripple = Math.sin(y * 0.9 + Math.sin(x * 0.05) * 3) > 0.55;
          const spread = sunR * (1.2 + depth * 6);
          if (ripple && Math.abs(x - sunX) < spread) c = mix(c, sunColor, 0.55 * (1 - depth));
        } else {
          c = mix(mix(ground, skyLow, 0.25), mix(ground, [0, 0, 0], 0.45), depth ** 0.8);
          if (scene.kind === 'desert')
            c = mix(c, [0, 0, 0], 0.08 * (Math.sin(x * 0.01 + y * 0.06) + 1));
        }
      }
      const grain = (rand() - 0.5) * 14;
      const i = (y * W + x) * 3;
      px[i] = Math.max(0, Math.min(255, c[0] + grain));
      px[i + 1] = Math.max(0, Math.min(255, c[1] + grain));
      px[i + 2] = Math.max(0, Math.min(255, c[2] + grain));
    }
  }
  return sharp(px, { raw: { width: W, height: H, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}

/** A 256 px PNG avatar: a diagonal gradient of the two colours in a circle, with a soft light. */
export async function avatarPng(colors: readonly [string, string]): Promise<Buffer> {
  const S = 256;
  const a = hex(colors[0]);
  const b = hex(colors[1]);
  const px = Buffer.alloc(S * S * 4);
  for (let y = 0; y < S; y++) {
    for (let x = 0; x < S; x++) {
      const c = mix(a, b, (x + y) / (2 * S));
      const light = Math.exp(-Math.hypot(x - S * 0.35, y - S * 0.3) / (S * 0.25));
      const d = Math.hypot(x - S / 2, y - S / 2);
      const i = (y * S + x) * 4;
      const lit = mix(c, [255, 255, 255], 0.35 * light);
      px[i] = lit[0];
      px[i + 1] = lit[1];
      px[i + 2] = lit[2];
      px[i + 3] = Math.max(0, Math.min(255, (S / 2 - d) * 255));
    }
  }
  return sharp(px, { raw: { width: S, height: S, channels: 4 } })
    .png()
    .toBuffer();
}
