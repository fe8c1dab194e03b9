import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Footage } from './capture';

const run = promisify(execFile);

/** Debian's ffmpeg (`apt-get install ffmpeg`), or FFMPEG_PATH. */
export const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';

/** Frames per second of the encoded loops: enough for a map flight, small on disk. */
export const FPS = 12;

export interface EncodeOptions {
  /**
   * Seconds into the footage for the poster when the scene marked none (a representative,
   * settled frame); negative: seconds before its end.
   */
  posterAt: number;
  /** VP9 and H.264 constant-quality levels (higher: smaller and softer). */
  vp9Crf?: number;
  h264Crf?: number;
}

export interface Encoded {
  webm: string;
  mp4: string;
  jpg: string;
  bytes: { webm: number; mp4: number; jpg: number };
}

async function ffmpeg(args: string[]): Promise<void> {
  try {
    await run(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
      maxBuffer: 16 << 20,
    });
  } catch (err) {
    const e = err as Error & { stderr?: string };
    throw new Error(`ffmpeg ${args.slice(-1)[0]}: ${e.stderr || e.message}`, { cause: err });
  }
}

/**
 * Encodes the footage into `<dir>/<slug>.webm` (VP9), `.mp4` (H.264, yuv420p, faststart) and a
 * poster `.jpg` of the same size, muted. The frames keep their real durations (the concat
 * demuxer's `duration` lines); the `fps` filter then makes a constant frame rate of them.
 */
export async function encode(
  footage: Footage,
  dir: string,
  slug: string,
  options: EncodeOptions,
): Promise<Encoded> {
  const work = await mkdtemp(join(tmpdir(), `clip-${slug}-`));
  try {
    const lines: string[] = ['ffconcat version 1.0'];
    let t = 0;
    let poster = 0;
    const posterAt = options.posterAt < 0 ? footage.seconds + options.posterAt : options.posterAt;
    for (const [i, frame] of footage.frames.entries()) {
      const name = `f${String(i).padStart(5, '0')}.jpg`;
      await writeFile(join(work, name), frame.jpeg);
      lines.push(`file ${name}`, `duration ${frame.seconds.toFixed(4)}`);
      if (footage.posterFrame === undefined && t <= posterAt) poster = i;
      t += frame.seconds;
    }
    if (footage.posterFrame !== undefined) poster = footage.posterFrame;
    // the concat demuxer drops the last duration unless the last file is listed once more
    lines.push(`file f${String(footage.frames.length - 1).padStart(5, '0')}.jpg`);
    const list = join(work, 'frames.ffconcat');
    await writeFile(list, `${lines.join('\n')}\n`);

    const { width, height } = footage;
    const filter = `fps=${FPS},scale=${width}:${height}:flags=lanczos,format=yuv420p`;
    const input = ['-f', 'concat', '-safe', '0', '-i', list, '-vf', filter, '-an'];
    const out = {
      webm: join(dir, `${slug}.webm`),
      mp4: join(dir, `${slug}.mp4`),
      jpg: join(dir, `${slug}.jpg`),
    };
    await ffmpeg([
      ...input,
      ...['-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', String(options.vp9Crf ?? 36)],
      ...['-row-mt', '1', '-deadline', 'good', '-cpu-used', '2', '-g', String(FPS * 10)],
      out.webm,
    ]);
    await ffmpeg([
      ...input,
      ...['-c:v', 'libx264', '-preset', 'slow', '-crf', String(options.h264Crf ?? 26)],
      ...[
        '-tune',
        'animation',
        '-profile:v',
        'high',
        '-movflags',
        '+faststart',
        '-g',
        String(FPS * 10),
      ],
      out.mp4,
    ]);
    // the poster: one settled frame, the video's size, JPEG quality about 75
    await ffmpeg([
      ...['-i', join(work, `f${String(poster).padStart(5, '0')}.jpg`)],
      ...['-vf', `scale=${width}:${height}:flags=lanczos`, '-q:v', '5', out.jpg],
    ]);
    const bytes = {
      webm: (await stat(out.webm)).size,
      mp4: (await stat(out.mp4)).size,
      jpg: (await stat(out.jpg)).size,
    };
    return { ...out, bytes };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
