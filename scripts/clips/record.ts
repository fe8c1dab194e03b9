import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { tmpdir } from 'node:os';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_PASSWORD, USERS, type UserKey } from '../demo/data';
import { seedDemo } from '../demo/seed';
import { root, type RunningStack } from '../stack/stack';
import { launchBrowser, logIn, openAs, type SignedIn } from './browser';
import { encode } from './encode';
import { filmPage, type Scene } from './scene';
import { SCENES } from './scenes';
import { ensureFrontendBuild, startClipsStack } from './stack';

/**
 * Records the landing page's feature clips from the real running product:
 *
 *   npm run clips:record [-- --only map,chat] [-- --url http://localhost:8080]
 *
 * Without --url it builds the frontend if needed, starts its own stack (namespace `clips`,
 * gateway on 28080), seeds the demo data through the public API, films each scene in headless
 * Chromium (CDP screencast), encodes WebM/VP9 + MP4/H.264 + a poster with ffmpeg into
 * frontend/public/clips, writes clips.json, prints the sizes and fails when all of them
 * together reach BUDGET_BYTES. With --url it uses that running stack (seeded the same way).
 */

/** All six clips together (webm + mp4 + jpg each) stay under this. */
export const BUDGET_BYTES = 4 * 1024 * 1024;

export const CLIPS_DIR = join(root, 'frontend/public/clips');
const FAILURES_DIR = join(tmpdir(), 'clip-failures');

export interface ClipEntry {
  slug: string;
  width: number;
  height: number;
  seconds: number;
  bytes: { webm: number; mp4: number; jpg: number };
}

const log = (line: string) => process.stdout.write(`[clips] ${line}\n`);

function readManifest(): ClipEntry[] {
  try {
    return JSON.parse(readFileSync(join(CLIPS_DIR, 'clips.json'), 'utf8')) as ClipEntry[];
  } catch {
    return [];
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`.padStart(8);

function printTable(entries: ClipEntry[]): number {
  const total = entries.reduce((s, e) => s + e.bytes.webm + e.bytes.mp4 + e.bytes.jpg, 0);
  const rows = [
    `${'clip'.padEnd(12)} ${'size'.padEnd(8)} ${'secs'.padStart(5)} ${'webm'.padStart(8)} ${'mp4'.padStart(8)} ${'jpg'.padStart(8)} ${'all'.padStart(8)}`,
    ...entries.map(
      (e) =>
        `${e.slug.padEnd(12)} ${`${e.width}x${e.height}`.padEnd(8)} ${e.seconds.toFixed(1).padStart(5)} ${kb(e.bytes.webm)} ${kb(e.bytes.mp4)} ${kb(e.bytes.jpg)} ${kb(e.bytes.webm + e.bytes.mp4 + e.bytes.jpg)}`,
    ),
    `${'total'.padEnd(12)} ${''.padEnd(8)} ${''.padStart(5)} ${''.padStart(8)} ${''.padStart(8)} ${''.padStart(8)} ${kb(total)}  (budget ${kb(BUDGET_BYTES).trim()})`,
  ];
  process.stdout.write(`\n${rows.join('\n')}\n\n`);
  return total;
}

/** When frontend/dist was last built (its index.html). */
function distStamp(): number {
  try {
    return statSync(join(root, 'frontend/dist/index.html')).mtimeMs;
  } catch {
    return 0;
  }
}

async function signInDemo(baseUrl: string): Promise<Record<UserKey, SignedIn>> {
  const entries = await Promise.all(
    USERS.map(async (u) => [u.key, await logIn(baseUrl, u.email, DEMO_PASSWORD)] as const),
  );
  return Object.fromEntries(entries) as Record<UserKey, SignedIn>;
}

async function recordScene(
  scene: Scene,
  ctx: { baseUrl: string; browser: Browser; demo: Record<UserKey, SignedIn> },
): Promise<ClipEntry> {
  const started = Date.now();
  const opened: { context: BrowserContext; page: Page }[] = [];
  const open = async (who: SignedIn) => {
    const one = await openAs(ctx.browser, ctx.baseUrl, who);
    opened.push(one);
    return one;
  };
  let footage;
  try {
    footage = await scene.film({ ...ctx, open, film: filmPage });
  } catch (err) {
    mkdirSync(FAILURES_DIR, { recursive: true });
    for (const [i, { page }] of opened.entries()) {
      const file = join(FAILURES_DIR, `${scene.slug}-${i + 1}.png`);
      await page.screenshot({ path: file }).catch(() => {});
      log(`${scene.slug} failed; the page as it was: ${file}`);
    }
    throw err;
  } finally {
    for (const { context } of opened) await context.close().catch(() => {});
  }
  const out = await encode(footage, CLIPS_DIR, scene.slug, {
    posterAt: scene.posterAt,
    vp9Crf: scene.vp9Crf,
    h264Crf: scene.h264Crf,
  });
  log(
    `${scene.slug}: ${footage.frames.length} frames, ${footage.seconds.toFixed(1)} s ` +
      `(filmed and encoded in ${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  return {
    slug: scene.slug,
    width: footage.width,
    height: footage.height,
    seconds: Math.round(footage.seconds * 10) / 10,
    bytes: out.bytes,
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, url: { type: 'string' } },
  });
  const only = values.only?.split(',').map((s) => s.trim()) ?? null;
  const unknown = only?.filter((slug) => !SCENES.some((s) => s.slug === slug)) ?? [];
  if (unknown.length > 0) {
    throw new Error(
      `no clip named ${unknown.join(', ')} (${SCENES.map((s) => s.slug).join(', ')})`,
    );
  }
  const scenes = SCENES.filter((s) => !only || only.includes(s.slug));

  let stack: RunningStack | undefined;
  let browser: Browser | undefined;
  const stopAll = async () => {
    await browser?.close().catch(() => {});
    browser = undefined;
    if (stack) {
      log('stopping the stack');
      await stack.stop();
      stack = undefined;
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stopAll().then(() => process.exit(130)));
  }

  try {
    let baseUrl = values.url?.replace(/\/+$/, '');
    if (!baseUrl) {
      ensureFrontendBuild(log);
      log('starting the stack (namespace clips, gateway :28080)');
      stack = await startClipsStack();
      baseUrl = stack.url;
      log(`stack at ${baseUrl} (logs: ${stack.logDir})`);
    }
    log(`seeding the demo data into ${baseUrl}`);
    await seedDemo(baseUrl, (line) => log(`  ${line}`));
    const demo = await signInDemo(baseUrl);

    mkdirSync(CLIPS_DIR, { recursive: true });
    browser = await launchBrowser();
    const recorded = new Map(readManifest().map((e) => [e.slug, e]));
    let builtAt = distStamp();
    for (const scene of scenes) {
      // the gateway routes the files dist had when it started: after a rebuild (by anyone),
      // restart it so the new assets are served
      if (stack && distStamp() !== builtAt) {
        log('frontend/dist was rebuilt: restarting the gateway');
        await stack.stopProcess('gateway');
        await stack.startProcess('gateway');
        builtAt = distStamp();
      }
      log(`filming ${scene.slug}: ${scene.title}`);
      recorded.set(scene.slug, await recordScene(scene, { baseUrl, browser, demo }));
    }
    // in the landing page's order; clips not filmed this time keep their earlier figures
    const manifest = SCENES.map((s) => recorded.get(s.slug)).filter((e): e is ClipEntry => !!e);
    writeFileSync(join(CLIPS_DIR, 'clips.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const total = printTable(manifest);
    if (total >= BUDGET_BYTES) {
      log(`FAIL: the clips take ${kb(total).trim()}, the budget is ${kb(BUDGET_BYTES).trim()}`);
      return 1;
    }
    return 0;
  } finally {
    await stopAll();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`[clips] failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
