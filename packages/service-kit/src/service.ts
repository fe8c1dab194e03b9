import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { runService, type Closer } from './lifecycle';

/** What a service's composition root (`createService(env)` in `src/service.ts`) returns. */
export interface ServiceHandle {
  /** The HTTP app, not listening: `main.ts` hands it to `runService`, tests inject into it. */
  app: FastifyInstance;
  logger: Logger;
  /** Closes the app, then what the root opened, newest first (consumers, relay, pools). Once. */
  close(): Promise<void>;
}

/** Runs every closer in order, even when one fails; then throws the first failure. */
export async function runClosers(closers: readonly Closer[]): Promise<void> {
  const errors: unknown[] = [];
  for (const close of closers) {
    try {
      await close();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw errors[0];
}

/**
 * The frame of a composition root. `build` opens the service's parts and registers each one's
 * closer with `onClose` as it opens it; it returns the app and whatever handles callers need.
 * The result's `close` closes the app, then runs the closers newest first (what opened last,
 * e.g. consumers and relay, closes before the pools they use). If `build` throws, what it had
 * opened is closed before the error is passed on.
 */
export async function composeService<T extends Omit<ServiceHandle, 'close'>>(
  build: (onClose: (closer: Closer) => void) => Promise<T>,
): Promise<T & ServiceHandle> {
  const closers: Closer[] = [];
  const closeOpened = () => runClosers([...closers].reverse());
  let built: T;
  try {
    built = await build((closer) => closers.push(closer));
  } catch (err) {
    await closeOpened().catch(() => undefined);
    throw err;
  }
  let closing: Promise<void> | null = null;
  return {
    ...built,
    close: () => (closing ??= runClosers([() => built.app.close(), closeOpened])),
  };
}

/**
 * A service's `main.ts` after `createService(env)`: listens on the env's `HOST:PORT` with
 * `runService`, whose shutdown (SIGTERM/SIGINT) ends with the service's `close()`.
 */
export function serveService(
  svc: ServiceHandle,
  env: { PORT: number; HOST: string },
): Promise<void> {
  return runService({
    app: svc.app,
    port: env.PORT,
    host: env.HOST,
    logger: svc.logger,
    closers: [() => svc.close()],
  });
}
