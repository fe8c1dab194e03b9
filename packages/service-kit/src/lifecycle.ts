import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { shutdownTelemetry } from './telemetry/state';

export type Closer = () => Promise<unknown> | unknown;

export interface RunOptions {
  app: FastifyInstance;
  port: number;
  host: string;
  logger: Logger;
  /** Run after the HTTP server stopped accepting requests, in order (e.g. relay, pools). */
  closers?: Closer[];
  /**
   * How long requests still running when a shutdown begins may take to finish; then their
   * connections are closed (a stalled or slow upload must not hold the process up). Default 3 s.
   */
  drainTimeoutMs?: number;
  /** Hard limit for a graceful shutdown before the process exits anyway. Default 10 s. */
  shutdownTimeoutMs?: number;
}

/** Default of `RunOptions.drainTimeoutMs`. */
export const DRAIN_TIMEOUT_MS = 3000;

/**
 * Closes `app` as a shutdown does: the listener stops at once, idle keep-alive connections are
 * closed (Fastify's `forceCloseConnections: 'idle'`), a request arriving meanwhile on a kept-alive
 * connection gets a 503 with `Connection: close` (`return503OnClosing`), requests in flight may
 * finish for `drainTimeoutMs`, then every connection still open is closed.
 */
export async function closeApp(
  app: FastifyInstance,
  logger: Logger,
  drainTimeoutMs: number = DRAIN_TIMEOUT_MS,
): Promise<void> {
  const cut = setTimeout(() => {
    logger.warn({ drainTimeoutMs }, 'requests still running after the drain limit: closing them');
    app.server.closeAllConnections();
  }, drainTimeoutMs);
  cut.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}

/**
 * Listens, and on SIGTERM/SIGINT stops accepting requests, drains in-flight ones (at most
 * `drainTimeoutMs`, see `closeApp`), runs the closers and exits. A second signal or the hard
 * timeout exits at once.
 */
export async function runService(options: RunOptions): Promise<void> {
  const { app, logger } = options;
  let closing = false;
  const shutdown = async (signal: string) => {
    // (the local stack runner does not repeat a Ctrl-C its services already received)
    if (closing) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    closing = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, options.shutdownTimeoutMs ?? 10_000);
    timer.unref();
    try {
      await closeApp(app, logger, options.drainTimeoutMs);
      for (const close of options.closers ?? []) await close();
      await shutdownTelemetry(); // the spans still buffered (nothing when tracing is off)
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  watchSupervisor(() => void shutdown('supervisor-gone'));
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));

  await app.listen({ port: options.port, host: options.host });
}

/**
 * Under the local stack runner (`WAYFARER_SUPERVISOR_PID`), stop when the runner is gone, so a
 * killed `npm start` never leaves services holding their ports.
 */
function watchSupervisor(onGone: () => void): void {
  const pid = Number(process.env.WAYFARER_SUPERVISOR_PID);
  if (!Number.isInteger(pid) || pid <= 0) return;
  const timer = setInterval(() => {
    try {
      process.kill(pid, 0);
    } catch {
      clearInterval(timer);
      onGone();
    }
  }, 2000);
  timer.unref();
}

/** Wraps a service's main: logs a startup failure (e.g. a ConfigError) clearly and exits 1. */
export function main(name: string, start: () => Promise<void>): void {
  start().catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`[${name}] failed to start: ${message}\n`);
    process.exit(1);
  });
}
