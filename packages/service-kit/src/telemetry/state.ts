/**
 * What the preload leaves for the rest of the process: how to flush and stop tracing. Kept on
 * `globalThis` under a registered symbol, so it is shared even if this module were loaded
 * twice (the preload and the entry resolve it through different specifiers).
 */
const KEY = Symbol.for('wayfarer.telemetry.shutdown');

type Holder = { [KEY]?: () => Promise<void> };

export function setTelemetryShutdown(shutdown: () => Promise<void>): void {
  (globalThis as Holder)[KEY] = shutdown;
}

/** True when the preload started tracing in this process. */
export function tracingActive(): boolean {
  return (globalThis as Holder)[KEY] !== undefined;
}

/**
 * Exports the spans still buffered and stops tracing (at most `timeoutMs`); nothing when
 * tracing is off. `runService` calls it last on shutdown, so a stopped process loses no span.
 */
export async function shutdownTelemetry(timeoutMs = 2000): Promise<void> {
  const shutdown = (globalThis as Holder)[KEY];
  if (!shutdown) return;
  delete (globalThis as Holder)[KEY];
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    shutdown().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
