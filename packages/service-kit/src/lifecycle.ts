import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

export type Closer = () => Promise<unknown> | unknown;

export interface RunOptions {
  app: FastifyInstance;
  port: number;
  host: string;
  logger: Logger;
  /** Run after the HTTP server stopped accepting requests, in order (e.g. relay, pools). */
  closers?: Closer[];
  /** Hard limit for a graceful shutdown before the process exits anyway. */
  shutdownTimeoutMs?: number;
}

/**
 * Listens, and on SIGTERM/SIGINT stops accepting requests, drains in-flight ones, runs the
 * closers and exits. A second signal or the timeout exits at once.
 */
export async function runService(options: RunOptions): Promise<void> {
  const { app, logger } = options;
  let closing = false;
  const shutdown = async (signal: string) => {
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
      await app.close();
      for (const close of options.closers ?? []) await close();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));

  await app.listen({ port: options.port, host: options.host });
}

/** Wraps a service's main: logs a startup failure (e.g. a ConfigError) clearly and exits 1. */
export function main(name: string, start: () => Promise<void>): void {
  start().catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`[${name}] failed to start: ${message}\n`);
    process.exit(1);
  });
}
