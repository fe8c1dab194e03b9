import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * A redis-server of the test's own on a free loopback port (no persistence), that the test
 * stops for real (SIGKILL) and starts again on the same port.
 */
export class RedisProcess {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisProcess> {
    const redis = new RedisProcess(await freePort());
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server and resolves once it answers PING. */
  async restart(): Promise<void> {
    if (this.child) throw new Error('redis-server is still running');
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', ''];
    const child = spawn(REDIS_SERVER, [...args, '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    this.child = child;
    // redis-server logs this line once it listens; its log is drained from then on
    await new Promise<void>((resolve, reject) => {
      let log = '';
      const onExit = (code: number | null) =>
        reject(new Error(`redis-server exited (${code}):\n${log}`));
      child.once('exit', onExit);
      child.stdout!.on('data', (chunk: Buffer) => {
        if (log.includes('Ready to accept connections')) return;
        log += chunk.toString();
        if (!log.includes('Ready to accept connections')) return;
        child.off('exit', onExit);
        resolve();
      });
    });
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    probe.on('error', () => {}); // connect/ping below reject with it
    try {
      await probe.connect();
      await probe.ping();
    } finally {
      probe.disconnect();
    }
  }

  /** Freezes redis-server (SIGSTOP): connections stay open, nothing answers. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** Thaws a paused redis-server (SIGCONT). */
  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Kills redis-server (SIGKILL: a crash) and waits for the process to be gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}
