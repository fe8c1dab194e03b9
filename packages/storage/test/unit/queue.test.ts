import { describe, expect, it } from 'vitest';
import { ImageQueue } from '../../src/queue';

describe('ImageQueue', () => {
  it('a task that throws (rather than rejects) rejects its caller and frees its slot', async () => {
    const queue = new ImageQueue(1);
    const thrown = queue.run<number>(() => {
      throw new Error('stopped before the work');
    }, 'later');
    await expect(thrown).rejects.toThrow('stopped before the work');
    // the slot is free again: the next job runs, and the queue goes idle
    await expect(queue.run(async () => 7)).resolves.toBe(7);
    await queue.idle();
    expect([queue.active, queue.queued]).toEqual([0, 0]);
  });

  it('runs `now` jobs before `later` ones, at most `concurrency` at once', async () => {
    const queue = new ImageQueue(1);
    const order: string[] = [];
    let release!: () => void;
    const first = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    const later = queue.run(async () => void order.push('later'), 'later');
    const now = queue.run(async () => void order.push('now'), 'now');
    expect(queue.active).toBe(1);
    release();
    await Promise.all([first, later, now]);
    expect(order).toEqual(['now', 'later']);
  });
});
