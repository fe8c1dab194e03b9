import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, utimes } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * Scratch space for uploads that a crash cannot fill up. Every instance of a service spools
 * into its own directory under one root (`SPOOL_DIR`): `<root>/<host>-<pid>-<random>/<request>/`.
 * A request's directory is removed when it ends (`withRequestDir`); what a killed process left
 * behind is removed by `sweep()`, which the service runs on start and periodically:
 *
 * - a request directory of this instance that no request holds any more is removed;
 * - another instance's directory on this host is removed at once when its process is gone, or
 *   when it names this very process without being one this process opened (a container that
 *   restarted: same host name, same pid, so that is the previous run's);
 * - any other instance's directory untouched for `staleAfterMs` is removed (a live instance
 *   touches its own at every sweep, so only a dead one's grows old: e.g. another pod's on a
 *   shared volume, or a pid reused by an unrelated process).
 */
export interface SpoolAreaOptions {
  /** The directory every instance spools under (created if missing). */
  root: string;
  /** How long another instance's directory may stay untouched before it counts as dead. */
  staleAfterMs: number;
}

/** The env field of a service that spools uploads: where, default `<tmp>/wayfarer-<name>-spool`. */
export function spoolDirEnv(service: string) {
  return z
    .string()
    .min(1)
    .default(() => join(tmpdir(), `wayfarer-${service}-spool`));
}

const INSTANCE = /^(.+)-(\d+)-[0-9a-f]+$/;

/** The instance directories this process opened (several services may share a process in tests). */
const opened = new Set<string>();

/** Whether process `pid` of this host is alive (EPERM: alive, owned by another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** What one `sweep()` removed (paths). */
export interface SpoolSweep {
  removed: string[];
}

export class SpoolArea {
  /** The requests running now: their directories are never swept. */
  private readonly active = new Set<string>();

  /** This instance's directory. */
  readonly dir: string;

  private constructor(
    readonly root: string,
    private readonly name: string,
    private readonly host: string,
    private readonly staleAfterMs: number,
  ) {
    this.dir = join(root, name);
  }

  /** Creates the root and a fresh directory for this instance. */
  static async open(options: SpoolAreaOptions): Promise<SpoolArea> {
    const host = hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';
    const name = `${host}-${process.pid}-${randomBytes(4).toString('hex')}`;
    await mkdir(join(options.root, name), { recursive: true, mode: 0o700 });
    opened.add(name);
    return new SpoolArea(options.root, name, host, options.staleAfterMs);
  }

  /** Runs `fn` with a fresh directory of its own, removed afterwards whatever happens. */
  async withRequestDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
    const name = randomUUID();
    // held before it exists, so a sweep never sees it unheld
    this.active.add(name);
    const dir = join(this.dir, name);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      return await fn(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
      this.active.delete(name);
    }
  }

  /** Removes what dead instances and ended requests left (see the class comment). */
  async sweep(now: number = Date.now()): Promise<SpoolSweep> {
    const removed: string[] = [];
    const remove = async (path: string) => {
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    };
    // this instance is alive: say so to the others, and recreate its directory if it went
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await utimes(this.dir, new Date(now), new Date(now));
    for (const name of await readdir(this.dir)) {
      if (!this.active.has(name)) await remove(join(this.dir, name));
    }
    for (const entry of await readdir(this.root, { withFileTypes: true })) {
      if (entry.name === this.name) continue;
      const path = join(this.root, entry.name);
      const match = INSTANCE.exec(entry.name);
      if (entry.isDirectory() && match?.[1] === this.host && !opened.has(entry.name)) {
        const pid = Number(match[2]);
        if (pid === process.pid || !processAlive(pid)) {
          await remove(path);
          continue;
        }
      }
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > this.staleAfterMs) await remove(path);
    }
    return { removed };
  }

  /** Removes this instance's directory (on shutdown: no request runs any more). */
  async close(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
    opened.delete(this.name);
  }
}
