import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { counter, DURATION_BUCKETS, histogram } from './metrics';

/**
 * The one mechanism for periodic work in a service (sweepers, pruners, lease renewals): every
 * job runs through `startPeriodic`, so each one is stopped on shutdown, never overlaps itself,
 * logs its failures, and is traced and metered like a request (a root span `job <name>`,
 * `wayfarer_job_runs_total{job,outcome}` and `wayfarer_job_duration_seconds{job}`).
 */

export interface PeriodicJob<T = unknown> {
  /** A short stable name: the span's, the metrics' `job` label and the logs' `job` field. */
  name: string;
  intervalMs: number;
  /** One pass. A failure is logged and metered; the next pass runs at the next interval. */
  run: () => Promise<T>;
  /** Run a first pass at once (default true), rather than after the first interval. */
  runAtStart?: boolean;
  /** A pass's failure is logged at this level (default `warn`). */
  failureLevel?: 'warn' | 'error';
}

export interface Periodic<T = unknown> {
  /**
   * Runs one pass now, or joins the one already running (tests, and work that must not wait
   * for the timer). Rejects when the pass fails.
   */
  runNow(): Promise<T>;
  /** Stops the timer and waits for a running pass to end. Idempotent. */
  stop(): Promise<void>;
}

const tracer = trace.getTracer('@wayfarer/service-kit');

const jobRuns = () =>
  counter({
    name: 'wayfarer_job_runs_total',
    help: 'Passes of periodic jobs, by job and outcome (ok, failed).',
    labelNames: ['job', 'outcome'] as const,
  });

const jobDuration = () =>
  histogram({
    name: 'wayfarer_job_duration_seconds',
    help: 'Duration of periodic job passes, by job.',
    labelNames: ['job'] as const,
    buckets: DURATION_BUCKETS,
  });

/** Starts `job` every `intervalMs` (timers unref'd: a job never holds the process up). */
export function startPeriodic<T>(job: PeriodicJob<T>, logger: Logger): Periodic<T> {
  const log = logger.child({ job: job.name });
  const runs = jobRuns();
  const duration = jobDuration();
  let running: Promise<T> | null = null;
  let stopped = false;

  const pass = async (): Promise<T> => {
    const end = duration.startTimer({ job: job.name });
    // a root span: a pass belongs to no request, whatever woke the timer
    return tracer.startActiveSpan(
      `job ${job.name}`,
      { kind: SpanKind.INTERNAL, root: true },
      ROOT_CONTEXT,
      async (span) => {
        try {
          const result = await job.run();
          runs.inc({ job: job.name, outcome: 'ok' });
          return result;
        } catch (err) {
          runs.inc({ job: job.name, outcome: 'failed' });
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw err;
        } finally {
          end();
          span.end();
        }
      },
    );
  };

  const runNow = (): Promise<T> => {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };

  const tick = () => {
    if (stopped) return;
    runNow().catch((err: unknown) => log[job.failureLevel ?? 'warn']({ err }, 'job pass failed'));
  };

  const timer = setInterval(tick, job.intervalMs);
  timer.unref();
  if (job.runAtStart ?? true) tick();

  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
