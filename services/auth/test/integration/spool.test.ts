import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gatewayHeaders, multipartBody } from '@wayfarer/test-kit';
import { newUser, startAuth, type Harness } from './harness';

/**
 * auth spools a registration's picture in storage's SpoolArea under its own SPOOL_DIR (here a
 * directory of this file's), and its composition root sweeps what a killed instance left.
 */
let spoolDir: string;
let deadInstance: string;
let h: Harness | undefined;

/** Files (not directories) under the spool root, at any depth. */
async function spoolFiles(): Promise<string[]> {
  const entries = await readdir(spoolDir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

beforeAll(async () => {
  spoolDir = await mkdtemp(join(tmpdir(), 'auth-spool-test-'));
  // what an auth instance of this host killed mid-upload left: its directory, named as
  // SpoolArea names it, with a request's half-written picture (its pid is a process now gone)
  const gone = spawn(process.execPath, ['-e', '']);
  await once(gone, 'exit');
  const host = hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';
  deadInstance = join(spoolDir, `${host}-${gone.pid}-0badc0de`);
  const request = join(deadInstance, randomUUID());
  await mkdir(request, { recursive: true });
  await writeFile(join(request, '0'), Buffer.alloc(64 * 1024));
  h = await startAuth({ env: () => ({ SPOOL_DIR: spoolDir }) });
});
afterAll(async () => {
  await h?.close();
  if (spoolDir) await rm(spoolDir, { recursive: true, force: true });
});

describe("auth's upload spool (SPOOL_DIR)", () => {
  it('on start, what a dead instance of this host left is gone and only its own directory is there', async () => {
    expect(existsSync(deadInstance)).toBe(false);
    expect(await readdir(spoolDir)).toEqual([basename(h!.spool.dir)]);
    expect(await spoolFiles()).toEqual([]);
  });

  it('spools a picture being uploaded under SPOOL_DIR and removes it when the request ends', async () => {
    // a picture big enough to be seen on disk before its upload ends
    const picture = await sharp({
      create: {
        width: 640,
        height: 640,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    const user = newUser('spool');
    const { payload, headers } = await multipartBody(user, [
      { field: 'profilePicture', data: picture, filename: 'me.jpg', type: 'image/jpeg' },
    ]);
    const address = await h!.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    expect(Number(port)).toBeGreaterThan(0);

    const req = httpRequest({
      host: '127.0.0.1',
      port: Number(port),
      method: 'POST',
      path: '/api/register',
      headers: {
        ...headers,
        ...gatewayHeaders('POST', '/api/register'),
        'content-length': String(payload.length),
      },
    });
    const answered = once(req, 'response') as Promise<[IncomingMessage]>;
    // everything but the picture's last 100 kB: the upload is in flight
    const held = payload.length - 100_000;
    req.write(payload.subarray(0, held));
    await vi.waitFor(
      async () => {
        const files = await spoolFiles();
        expect(files).toHaveLength(1);
        expect(files[0]!.startsWith(h!.spool.dir)).toBe(true);
      },
      { timeout: 10_000, interval: 20 },
    );
    req.end(payload.subarray(held));
    const [res] = await answered;
    res.resume();
    expect(res.statusCode).toBe(201);
    // the request's directory goes once its handler has ended (just after the answer is sent)
    await vi.waitFor(async () => expect(await readdir(h!.spool.dir)).toEqual([]));
    expect(await spoolFiles()).toEqual([]);
  });

  it('close() removes its own directory', async () => {
    const svc = h!;
    h = undefined;
    await svc.close();
    expect(await readdir(spoolDir)).toEqual([]);
  });
});
