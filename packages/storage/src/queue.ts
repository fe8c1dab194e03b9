import { AsyncResource } from 'node:async_hooks';

/**
 * The one bound on image work in a process (`IMAGE_CONCURRENCY`). sharp already runs off the
 * event loop (libuv threads), but a photo costs ~75 ms (stripped original) to ~250 ms (WebP
 * display variant) of CPU: four uploads at once would take every core, and requests unrelated
 * to images would queue behind them. Every image job goes through one queue per instance, at
 * most `concurrency` at a time (each with sharp's own threads, see `limitImageThreads`), so the
 * rest of the machine stays free for requests.
 *
 * Two priorities: `now` (a request waits for it: the stripped original of an upload) runs
 * before any `later` job (a display variant made after the trip was answered). Within a
 * priority jobs run in order.
 */
export type ImagePriority = 'now' | 'later';

interface Job {
  run: () => Promise<void>;
}

export class ImageQueue {
  private readonly waiting: Record<ImagePriority, Job[]> = { now: [], later: [] };
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1) {
      throw new Error(`ImageQueue concurrency must be a positive integer, got ${concurrency}`);
    }
  }

  /**
   * Runs `task` when a slot is free (its priority first); resolves or rejects with it. The task
   * runs in its caller's async context (whoever frees the slot starts it): its trace spans and
   * anything else kept in AsyncLocalStorage are the caller's, not another job's.
   */
  run<T>(task: () => Promise<T>, priority: ImagePriority = 'now'): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting[priority].push({
        // a task that throws rather than rejects (a check before its work) settles the same
        // way: before, the throw escaped `next()`, the caller's promise never settled and the
        // slot stayed taken, so `idle()` (a service's close) waited forever
        run: AsyncResource.bind(async () => {
          try {
            resolve(await task());
          } catch (err) {
            reject(err);
          }
        }),
      });
      this.next();
    });
  }

  /** Jobs waiting for a slot (not counting those running). */
  get queued(): number {
    return this.waiting.now.length + this.waiting.later.length;
  }

  /** Jobs running now. */
  get active(): number {
    return this.running;
  }

  /** Resolves once nothing runs and nothing waits. */
  idle(): Promise<void> {
    if (this.running === 0 && this.queued === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private next(): void {
    while (this.running < this.concurrency) {
      const job = this.waiting.now.shift() ?? this.waiting.later.shift();
      if (!job) break;
      this.running++;
      void job.run().finally(() => {
        this.running--;
        this.next();
        if (this.running === 0 && this.queued === 0) {
          const waiters = this.idleWaiters;
          this.idleWaiters = [];
          for (const resolve of waiters) resolve();
        }
      });
    }
  }
}
