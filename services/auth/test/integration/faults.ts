import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';

/** A free loopback TCP port (the OS picks one; it is released before returning). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * A redis-server of the test's own on a loopback port, persisted as production's is (AOF,
 * fsync once a second), that the test can crash (SIGKILL) and start again on the same port,
 * from the same data directory or an empty one.
 */
export class RedisServer {
  private process: ChildProcess | null = null;
  private readonly dirs: string[] = [];

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.restart({ emptyDir: true });
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** A plain client for the test's own checks (closed by the caller). */
  client(): Redis {
    return new Redis(this.url, { maxRetriesPerRequest: 1, lazyConnect: true });
  }

  /** Starts redis-server again (it must be stopped); `emptyDir` starts it with no data. */
  async restart({ emptyDir }: { emptyDir: boolean }): Promise<void> {
    if (this.process) throw new Error('redis-server is still running');
    if (emptyDir || this.dirs.length === 0) {
      this.dirs.push(await mkdtemp(join(tmpdir(), 'auth-redis-')));
    }
    const dir = this.dirs[this.dirs.length - 1]!;
    const child = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--save',
        '',
        '--dir',
        dir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.process = child;
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit').then(() => {
      throw new Error(`redis-server exited at start:\n${output}`);
    });
    const ready = (async () => {
      while (!output.includes('Ready to accept connections')) {
        await Promise.race([once(child.stdout!, 'data'), once(child.stderr!, 'data')]);
      }
    })();
    await Promise.race([ready, exited]);
    exited.catch(() => undefined);
  }

  /** Kills redis-server with SIGKILL (a crash: whatever was not fsynced yet is lost). */
  async crash(): Promise<void> {
    const child = this.process;
    if (!child) return;
    this.process = null;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  }

  async stop(): Promise<void> {
    await this.crash();
    await Promise.all(this.dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}

/**
 * A TCP proxy on a loopback port to `host:port`, to take a server away for real from one
 * client (here auth's PostgreSQL pool) without stopping it for everyone: `cut()` closes every
 * connection and stops listening (new connections are refused), `restore()` listens again.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  /** Where connections go; may be set after the start, before the first connection. */
  target = { host: '127.0.0.1', port: 0 };

  private constructor(readonly port: number) {}

  static async start(): Promise<TcpProxy> {
    const proxy = new TcpProxy(await freePort());
    await proxy.restore();
    return proxy;
  }

  /** `url` (e.g. a database URL) made to go through this proxy; its old host becomes the target. */
  route(url: string): string {
    const u = new URL(url);
    this.target = { host: u.hostname, port: Number(u.port) };
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
