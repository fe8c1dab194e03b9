import { describe, expect, it, vi } from 'vitest';
import { metricValue } from '@wayfarer/test-kit';
import { createLogger } from '../src/logger';
import { metricsText } from '../src/metrics';
import { startPeriodic } from '../src/periodic';

const logger = createLogger('periodic-test', 'silent');

async function jobMetric(name: string, labels: Record<string, string>): Promise<number> {
  return metricValue((await metricsText()).body, name, labels) ?? 0;
}

describe('startPeriodic (service-kit periodic.ts)', () => {
  it('runs at start, never overlaps itself, and meters each pass', async () => {
    let passes = 0;
    let release: () => void = () => undefined;
    const job = startPeriodic(
      {
        name: 'overlap-test',
        intervalMs: 60_000,
        run: async () => {
          passes++;
          await new Promise<void>((resolve) => (release = resolve));
          return passes;
        },
      },
      logger,
    );
    // the pass started at once is still running: runNow joins it instead of starting another
    const joined = job.runNow();
    expect(passes).toBe(1);
    release();
    expect(await joined).toBe(1);
    expect(await jobMetric('wayfarer_job_runs_total', { job: 'overlap-test', outcome: 'ok' })).toBe(
      1,
    );
    await job.stop();
  });

  it('counts a failed pass and runs again at the next interval', async () => {
    let passes = 0;
    let secondPass: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (secondPass = resolve));
    const job = startPeriodic(
      {
        name: 'failing-test',
        intervalMs: 20,
        run: async () => {
          passes++;
          if (passes === 1) throw new Error('first pass fails');
          secondPass();
        },
      },
      logger,
    );
    await second;
    await job.stop();
    expect(
      await jobMetric('wayfarer_job_runs_total', { job: 'failing-test', outcome: 'failed' }),
    ).toBe(1);
    expect(
      await jobMetric('wayfarer_job_runs_total', { job: 'failing-test', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('stops: stop() waits for the running pass, and no timer fires after it', async () => {
    vi.useFakeTimers();
    try {
      let passes = 0;
      let release: () => void = () => undefined;
      const job = startPeriodic(
        {
          name: 'stop-test',
          intervalMs: 1000,
          runAtStart: false,
          run: async () => {
            passes++;
            await new Promise<void>((resolve) => (release = resolve));
          },
        },
        logger,
      );
      await vi.advanceTimersByTimeAsync(1000);
      expect(passes).toBe(1);
      let stopped = false;
      const stopping = job.stop().then(() => (stopped = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(stopped).toBe(false); // the pass is still running
      release();
      await stopping;
      await vi.advanceTimersByTimeAsync(10_000);
      expect(passes).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
