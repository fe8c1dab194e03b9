import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crash, freePort, readyLine } from './process';

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';
const READY_LINE = 'Ready to accept connections';

export interface RedisServerOptions {
  /**
   * Persist as production does (AOF, fsync once a second), so a restart from the same
   * directory finds what was synced and a crash loses the last second at most. Default: no
   * persistence at all.
   */
  appendonly?: boolean;
}

/** One `PING` on a raw connection; resolves once redis-server answers `+PONG`. */
async function ping(port: number): Promise<void> {
  const socket = connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    socket.write('PING\r\n');
    const [reply] = (await once(socket, 'data')) as [Buffer];
    if (!reply.toString().startsWith('+PONG')) {
      throw new Error(`redis-server answered PING with ${JSON.stringify(reply.toString())}`);
    }
  } finally {
    socket.destroy();
  }
}

/**
 * A redis-server on a free loopback port, started by `startRedisServer`. It keeps its port
 * across `kill()` and `restart()`.
 */
export class RedisServer {
  private child: ChildProcess | null = null;
  private readonly dirs: string[] = [];

  constructor(
    readonly port: number,
    private readonly options: RedisServerOptions = {},
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /**
   * Starts redis-server (it must not be running) and resolves once it has logged that it
   * accepts connections and answered a PING. It reads the data directory of the previous run
   * (what an AOF server had synced survives a `kill()`), or a new empty one with `emptyDir`.
   */
  async restart({ emptyDir = false }: { emptyDir?: boolean } = {}): Promise<void> {
    if (this.child) throw new Error('redis-server is still running');
    if (emptyDir || this.dirs.length === 0) {
      this.dirs.push(await mkdtemp(join(tmpdir(), 'wayfarer-redis-')));
    }
    const dir = this.dirs[this.dirs.length - 1]!;
    const persistence = this.options.appendonly
      ? ['--appendonly', 'yes', '--appendfsync', 'everysec']
      : ['--appendonly', 'no'];
    const child = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--dir',
        dir,
        ...persistence,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    try {
      await readyLine(child, READY_LINE, 'redis-server');
    } catch (err) {
      this.child = null;
      throw err;
    }
    await ping(this.port);
  }

  /** Kills redis-server with SIGKILL (a crash) and waits until the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    await crash(child);
  }

  /** Freezes redis-server (SIGSTOP): its connections stay open and nothing answers. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** Thaws a paused redis-server (SIGCONT). */
  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Kills redis-server and removes its data directories. */
  async stop(): Promise<void> {
    await this.kill();
    await Promise.all(this.dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  }
}

/** Starts a redis-server of the test's own on a free loopback port (see `RedisServer`). */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const server = new RedisServer(await freePort(), options);
  await server.restart({ emptyDir: true });
  return server;
}
