import type { Logger } from '@wayfarer/service-kit';

/** Background tasks run on start and then every `intervalMs`, one run at a time. */
export interface Janitor {
  /** Resolves once a run that started after this call has ended. */
  nextRun(): Promise<void>;
  /** No new run starts; resolves once the current one (if any) ended. */
  stop(): Promise<void>;
}

/**
 * Runs `tasks` in order now and every `intervalMs` (the next run is scheduled when one ends,
 * so runs never overlap). A failing task is logged and the others still run; the next run tries
 * again.
 */
export function startJanitor(options: {
  tasks: Record<string, () => Promise<unknown>>;
  intervalMs: number;
  logger: Logger;
}): Janitor {
  const { tasks, intervalMs, logger } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();
  let waiters: (() => void)[] = [];

  const run = async () => {
    const ended = waiters;
    waiters = [];
    for (const [name, task] of Object.entries(tasks)) {
      if (stopped) break;
      try {
        await task();
      } catch (err) {
        logger.error({ err, task: name }, 'background task failed; it runs again later');
      }
    }
    for (const resolve of ended) resolve();
  };
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = run().then(() => schedule(intervalMs));
    }, delayMs);
    timer.unref();
  };
  schedule(0);

  return {
    nextRun: () => new Promise<void>((resolve) => waiters.push(resolve)),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
      for (const resolve of waiters) resolve();
    },
  };
}
