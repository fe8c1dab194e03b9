import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SpoolArea } from '../../src/spool';

const HOUR = 3_600_000;
const host = hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'spool-test-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The pid of a process that has exited (waited for, so the pid is free). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** What a killed instance leaves: its directory with a request's spool file. */
async function leftover(name: string, ageMs = 0): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'req'), { recursive: true });
  await writeFile(join(dir, 'req', '0'), Buffer.alloc(1024));
  if (ageMs > 0) {
    const then = new Date(Date.now() - ageMs);
    await utimes(dir, then, then);
  }
  return dir;
}

describe('SpoolArea', () => {
  it('gives each request its own directory and removes it when the request ends', async () => {
    const spool = await SpoolArea.open({ root, staleAfterMs: HOUR });
    let seen = '';
    await expect(
      spool.withRequestDir(async (dir) => {
        seen = dir;
        await writeFile(join(dir, '0'), 'x');
        expect(dir.startsWith(spool.dir)).toBe(true);
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');
    expect(existsSync(seen)).toBe(false);
    expect(await readdir(spool.dir)).toEqual([]);
  });

  it('never sweeps the directory of a running request; sweeps one nobody holds', async () => {
    const spool = await SpoolArea.open({ root, staleAfterMs: HOUR });
    const stray = join(spool.dir, 'stray');
    await mkdir(stray);
    await spool.withRequestDir(async (dir) => {
      await writeFile(join(dir, '0'), 'x');
      const { removed } = await spool.sweep();
      expect(removed).toEqual([stray]);
      expect(existsSync(join(dir, '0'))).toBe(true);
    });
  });

  it('removes a dead process’s directory on this host at once, keeps a live one’s', async () => {
    const dead = await leftover(`${host}-${await deadPid()}-0a0b0c0d`);
    // the parent of this test process is alive
    const alive = await leftover(`${host}-${process.ppid}-0a0b0c0d`);
    const spool = await SpoolArea.open({ root, staleAfterMs: HOUR });
    const { removed } = await spool.sweep();
    expect(removed).toEqual([dead]);
    expect(existsSync(alive)).toBe(true);
    expect(existsSync(spool.dir)).toBe(true);
  });

  it('removes a previous run of this very pid (a restarted container) but not a sibling', async () => {
    const previous = await leftover(`${host}-${process.pid}-deadbeef`);
    const sibling = await SpoolArea.open({ root, staleAfterMs: HOUR });
    const spool = await SpoolArea.open({ root, staleAfterMs: HOUR });
    expect((await spool.sweep()).removed).toEqual([previous]);
    expect(existsSync(sibling.dir)).toBe(true);
  });

  it('removes another host’s directory only once it is older than staleAfterMs', async () => {
    const fresh = await leftover('other-host-1-0a0b0c0d', HOUR / 2);
    const stale = await leftover('other-host-2-0a0b0c0d', 2 * HOUR);
    const stray = join(root, 'not-an-instance');
    await writeFile(stray, 'x');
    await utimes(stray, new Date(Date.now() - 2 * HOUR), new Date(Date.now() - 2 * HOUR));
    const spool = await SpoolArea.open({ root, staleAfterMs: HOUR });
    expect((await spool.sweep()).removed.sort()).toEqual([stale, stray].sort());
    expect(existsSync(fresh)).toBe(true);
  });

  it('a sweep says this instance is alive to the others', async () => {
    const spool = await SpoolArea.open({ root, staleAfterMs: HOUR });
    const then = new Date(Date.now() - 2 * HOUR);
    await utimes(spool.dir, then, then);
    await spool.sweep();
    // a sibling instance (opened by this process, so only the age rule applies) keeps it
    const other = await SpoolArea.open({ root, staleAfterMs: HOUR });
    await other.sweep();
    expect(existsSync(spool.dir)).toBe(true);
  });

  it('close removes the instance directory', async () => {
    const spool = await SpoolArea.open({ root, staleAfterMs: HOUR });
    await spool.close();
    expect(existsSync(spool.dir)).toBe(false);
  });
});
