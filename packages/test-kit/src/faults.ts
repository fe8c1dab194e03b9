import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real faults for tests: a redis-server and a Kafka broker of the test's own that it crashes
 * and starts again (the redis-server also freezes), and a TCP proxy that cuts a client off a
 * server that keeps running for everyone else.
 */

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';
const READY_LINE = 'Ready to accept connections';

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
    await new Promise<void>((resolve, reject) => {
      let log = '';
      let ready = false;
      // the log is drained for the server's whole life (a full pipe would block it)
      const onData = (chunk: Buffer) => {
        if (ready) return;
        log += chunk.toString();
        if (!log.includes(READY_LINE)) return;
        ready = true;
        child.off('exit', onExit);
        child.off('error', onExit);
        resolve();
      };
      const onExit = (codeOrError: unknown) => {
        this.child = null;
        reject(new Error(`redis-server exited at start (${String(codeOrError)}):\n${log}`));
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', onExit);
      child.once('error', onExit);
    });
    await ping(this.port);
  }

  /** Kills redis-server with SIGKILL (a crash) and waits until the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
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

export interface ProxyTarget {
  host: string;
  port: number;
}

/**
 * A TCP proxy on a loopback port, started by `startTcpProxy`, to take a server away from one
 * client for real while the server keeps running for everyone else. It keeps its port:
 * - `cut()`: every connection is closed (as a dropped network link would be), and each new one
 *   at once, until `restore()`;
 * - `freeze()`: connections stay open, new ones are accepted, but nothing passes either way
 *   (a black hole: the client waits on its own timeouts) until `restore()`, which delivers
 *   what was held and connects the held connections to the target;
 * - `dropReplies()`: what clients send reaches the target, what it answers is dropped (an
 *   answer lost on the way back: the server did the work, the client never hears of it) until
 *   `restore()`.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  /** Connections accepted while frozen: connected to the target on `restore()`. */
  private readonly held = new Set<Socket>();
  private mode: 'open' | 'frozen' | 'cut' = 'open';
  private repliesDropped = false;

  constructor(
    private readonly server: Server,
    /** Where connections go; may be changed (or set by `route`) before the first one. */
    public target: ProxyTarget,
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /**
   * `url` (a database or Redis URL) made to go through this proxy: its host and port become
   * the proxy's target, and the URL returned names the proxy instead.
   */
  route(url: string): string {
    const u = new URL(url);
    this.target = { host: u.hostname, port: Number(u.port) };
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  private accept(client: Socket): void {
    if (this.mode === 'cut') return void client.destroy();
    client.on('error', () => undefined); // its 'close' follows
    if (this.mode === 'open') return this.forward(client);
    client.pause();
    this.held.add(client);
    client.once('close', () => this.held.delete(client));
  }

  private forward(client: Socket): void {
    const upstream = connect(this.target.port, this.target.host);
    upstream.on('error', () => undefined); // its 'close' follows
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.once('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    this.pass(client, upstream);
    this.pass(upstream, client, () => this.repliesDropped);
  }

  /** Copies `from` to `to` with backpressure, never resuming while frozen; `drop()`: discards. */
  private pass(from: Socket, to: Socket, drop: () => boolean = () => false): void {
    from.on('data', (chunk: Buffer) => {
      if (drop()) return;
      if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => {
      if (this.mode === 'open') from.resume();
    });
    from.on('end', () => to.end());
  }

  /** Closes every connection through the proxy, and each new one until `restore()`. */
  cut(): void {
    this.mode = 'cut';
    for (const socket of [...this.sockets, ...this.held]) socket.destroy();
  }

  /** Holds every byte and every new connection until `restore()` (nothing is closed). */
  freeze(): void {
    if (this.mode === 'cut') return;
    this.mode = 'frozen';
    for (const socket of this.sockets) socket.pause();
  }

  /** Lets requests through but drops every byte the target answers, until `restore()`. */
  dropReplies(): void {
    this.repliesDropped = true;
  }

  /** Lets connections through again (held ones are connected to the target now). */
  restore(): void {
    this.mode = 'open';
    this.repliesDropped = false;
    for (const socket of this.sockets) socket.resume();
    for (const client of this.held) {
      this.held.delete(client);
      this.forward(client);
      client.resume();
    }
  }

  /** Cuts every connection and stops listening. */
  async close(): Promise<void> {
    this.cut();
    if (!this.server.listening) return;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Starts a TCP proxy on a free loopback port to `target` (a `{host, port}`, or a URL whose
 * host and port are taken; none: set it later with `route`).
 */
export async function startTcpProxy(target?: ProxyTarget | string): Promise<TcpProxy> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const proxy = new TcpProxy(server, { host: '127.0.0.1', port: 0 });
  if (typeof target === 'string') proxy.route(target);
  else if (target) proxy.target = target;
  return proxy;
}

/**
 * Where deploy/local caches the Kafka jars (`~/.cache/wayfarer/kafka-<version>-<pom hash>/libs`,
 * complete once `.complete` is there), or `KAFKA_LIBS_DIR`.
 */
export function kafkaLibsDir(): string {
  if (process.env.KAFKA_LIBS_DIR) return process.env.KAFKA_LIBS_DIR;
  const cache = process.env.WAYFARER_CACHE ?? join(homedir(), '.cache', 'wayfarer');
  const found = existsSync(cache)
    ? readdirSync(cache)
        .filter((d) => d.startsWith('kafka-') && existsSync(join(cache, d, 'libs', '.complete')))
        .sort()
    : [];
  if (found.length === 0) {
    throw new Error(
      `no Kafka jars in ${cache}/kafka-*/libs: run deploy/local/up once (or set KAFKA_LIBS_DIR)`,
    );
  }
  return join(cache, found[found.length - 1]!, 'libs');
}

const KAFKA_READY_LINE = 'Kafka Server started';
const KAFKA_LOG4J = fileURLToPath(
  new URL('../../../deploy/local/kafka/log4j.properties', import.meta.url),
);

/**
 * A Kafka broker of the test's own (KRaft, one node that is broker and controller, as
 * deploy/local runs it) on free loopback ports, started by `startKafkaServer`: a test that
 * needs Kafka really stopped kills this one, never the shared one. It keeps its ports and its
 * data across `kill()` and `restart()`.
 */
export class KafkaServer {
  private child: ChildProcess | null = null;
  /** The last lines the broker wrote (for the error of a start that failed). */
  private tail = '';

  constructor(
    readonly port: number,
    readonly controllerPort: number,
    readonly dir: string,
  ) {}

  /** `host:port`, for `KAFKA_BROKERS`. */
  get brokers(): string {
    return `127.0.0.1:${this.port}`;
  }

  private java(args: string[]): ChildProcess {
    return spawn(
      process.env.JAVA_BIN ?? 'java',
      [
        '-Xmx256m',
        '-Xms128m',
        '-XX:+UseSerialGC',
        '-XX:TieredStopAtLevel=1',
        '-Djava.awt.headless=true',
        `-Dlog4j.configuration=file:${KAFKA_LOG4J}`,
        '-cp',
        `${kafkaLibsDir()}/*`,
        ...args,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
  }

  /** Writes server.properties and formats the storage with a new cluster id (once). */
  async format(): Promise<void> {
    const config = join(this.dir, 'server.properties');
    await writeFile(
      config,
      [
        'process.roles=broker,controller',
        'node.id=1',
        `controller.quorum.voters=1@127.0.0.1:${this.controllerPort}`,
        'controller.listener.names=CONTROLLER',
        `listeners=PLAINTEXT://127.0.0.1:${this.port},CONTROLLER://127.0.0.1:${this.controllerPort}`,
        `advertised.listeners=PLAINTEXT://127.0.0.1:${this.port}`,
        'inter.broker.listener.name=PLAINTEXT',
        'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
        `log.dirs=${join(this.dir, 'data')}`,
        'offsets.topic.replication.factor=1',
        'offsets.topic.num.partitions=3',
        'transaction.state.log.replication.factor=1',
        'transaction.state.log.min.isr=1',
        'transaction.state.log.num.partitions=3',
        'default.replication.factor=1',
        'min.insync.replicas=1',
        'auto.create.topics.enable=true',
        'num.partitions=3',
        'group.initial.rebalance.delay.ms=0',
        '',
      ].join('\n'),
    );
    const clusterId = randomBytes(16).toString('base64url');
    const child = this.java(['kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', config]);
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`kafka StorageTool format failed (${code}):\n${out}`);
  }

  /** Starts the broker (it must not be running); resolves once it logged that it started. */
  async restart(): Promise<void> {
    if (this.child) throw new Error('kafka is still running');
    const child = this.java(['kafka.Kafka', join(this.dir, 'server.properties')]);
    this.child = child;
    this.tail = '';
    await new Promise<void>((resolve, reject) => {
      let ready = false;
      // the log is drained for the broker's whole life (a full pipe would block it)
      const onData = (chunk: Buffer) => {
        this.tail = (this.tail + chunk.toString()).slice(-8000);
        if (ready || !this.tail.includes(KAFKA_READY_LINE)) return;
        ready = true;
        child.off('exit', onExit);
        resolve();
      };
      const onExit = (code: unknown) => {
        this.child = null;
        reject(new Error(`kafka exited at start (${String(code)}):\n${this.tail}`));
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', onExit);
    });
  }

  /** Kills the broker with SIGKILL (a crash) and waits until the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }

  /** Kills the broker and removes its directory. */
  async stop(): Promise<void> {
    await this.kill();
    await rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * Starts a Kafka broker of the test's own (see `KafkaServer`) from deploy/local's cached jars
 * (`kafkaLibsDir`), in a new temporary directory. A JVM start: seconds, more on a busy machine.
 */
export async function startKafkaServer(): Promise<KafkaServer> {
  const dir = await mkdtemp(join(tmpdir(), 'wayfarer-kafka-'));
  const server = new KafkaServer(await freePort(), await freePort(), dir);
  try {
    await server.format();
    await server.restart();
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}
