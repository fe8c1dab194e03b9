import { startPeriodic, type Logger, type Periodic } from '@wayfarer/service-kit';

/**
 * Background tasks run in order on start and then every `intervalMs`, as one periodic job
 * (service-kit `startPeriodic`: passes never overlap, stopped on shutdown). A failing task is
 * logged and the others still run; the next pass tries again.
 */
export function startJanitor(options: {
  name: string;
  tasks: Record<string, () => Promise<unknown>>;
  intervalMs: number;
  logger: Logger;
}): Periodic<void> {
  const { tasks, logger } = options;
  return startPeriodic(
    {
      name: options.name,
      intervalMs: options.intervalMs,
      run: async () => {
        for (const [name, task] of Object.entries(tasks)) {
          try {
            await task();
          } catch (err) {
            logger.error({ err, task: name }, 'background task failed; it runs again later');
          }
        }
      },
    },
    logger,
  );
}
