/**
 * When the stack runner restarts a process that exited on its own (crashed, killed, out of
 * memory), as a Kubernetes Deployment or compose's `restart:` would. Pure: no clock, no process.
 *
 * - Every exit the runner did not ask for is restarted: `stopProcess` and `stop` (Ctrl-C) never
 *   are.
 * - The delay doubles with each crash in a row (1 s, 2 s, 4 s ... at most 30 s), so a process
 *   that cannot start does not spin; it starts again from 1 s once a restarted process has run
 *   ready for `healthyResetMs`, as Kubernetes' CrashLoopBackOff resets after a pod has run fine
 *   for a while.
 */
export const RESTART_POLICY = {
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  /**
   * Ready this long: the series is over, the next crash counts as the first one again (1 s).
   * 10 s, not Kubernetes' 10 minutes: the back-off is here to keep a process that cannot start,
   * or dies on its first work, from spinning, and every process of this stack is ready within a
   * few seconds (social, the slowest: its atlas and its consumers' joins) and meets its first
   * work (requests, the consumers' first batches) within a second or two of ready. Ten seconds
   * of ready is past both, so a crash after it is a new fault, not the same start failing again;
   * and a process that dies every 10 s still restarts at most every 15 s or so (1 s, its start,
   * 10 s ready): not a spin. A longer window (it was 30 s) kept crashes or kills less than half
   * a minute apart in one series, so restarts grew slower and slower.
   */
  healthyResetMs: 10_000,
} as const;

export type RestartPolicy = { [K in keyof typeof RESTART_POLICY]: number };

/** The delay before restart number `crashesInARow` (1 for the first crash of a series). */
export function restartDelayMs(
  crashesInARow: number,
  policy: RestartPolicy = RESTART_POLICY,
): number {
  const doublings = Math.min(Math.max(crashesInARow - 1, 0), 30);
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** doublings);
}

/**
 * The crashes in a row after an exit: 1 when the process had been ready for the healthy period
 * (a new series), else one more than before (it crashed while starting, or soon after).
 */
export function crashesInARowAfter(
  previous: number,
  readyForMs: number | null,
  policy: RestartPolicy = RESTART_POLICY,
): number {
  return readyForMs !== null && readyForMs >= policy.healthyResetMs ? 1 : previous + 1;
}

/**
 * The runner's line when a restarted process has run ready through the healthy period:
 * `social has run ready for 10 s since restart 4; its back-off is 1 s again`.
 */
export function seriesEndLine(
  name: string,
  restartNumber: number,
  policy: RestartPolicy = RESTART_POLICY,
): string {
  const s = (ms: number) => Number((ms / 1000).toFixed(1));
  return (
    `${name} has run ready for ${s(policy.healthyResetMs)} s since restart ${restartNumber}; ` +
    `its back-off is ${s(policy.firstDelayMs)} s again`
  );
}

/** Whether an exit is restarted: only one that neither the stack nor the caller asked for. */
export function shouldRestart(exit: { stackStopping: boolean; stopAsked: boolean }): boolean {
  return !exit.stackStopping && !exit.stopAsked;
}

/** `exited with code 1` or `exited with signal SIGKILL`. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `exited with signal ${signal}` : `exited with code ${code ?? '?'}`;
}

/** The runner's line for a restart: `gateway exited with signal SIGKILL; restarting in 1 s (restart 1)`. */
export function restartLine(
  name: string,
  exit: { code: number | null; signal: NodeJS.Signals | null },
  delayMs: number,
  restartNumber: number,
): string {
  const seconds = Number((delayMs / 1000).toFixed(1));
  return `${name} ${describeExit(exit.code, exit.signal)}; restarting in ${seconds} s (restart ${restartNumber})`;
}
