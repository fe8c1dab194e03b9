import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crash, freePort, readyLine } from './process';

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
  new URL('../../../../deploy/local/kafka/log4j.properties', import.meta.url),
);

/**
 * A Kafka broker of the test's own (KRaft, one node that is broker and controller, as
 * deploy/local runs it) on free loopback ports, started by `startKafkaServer`: a test that
 * needs Kafka really stopped kills this one, never the shared one. It keeps its ports and its
 * data across `kill()` and `restart()`.
 */
export class KafkaServer {
  private child: ChildProcess | null = null;

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
    try {
      await readyLine(child, KAFKA_READY_LINE, 'kafka');
    } catch (err) {
      this.child = null;
      throw err;
    }
  }

  /** Kills the broker with SIGKILL (a crash) and waits until the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    await crash(child);
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
