import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

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
