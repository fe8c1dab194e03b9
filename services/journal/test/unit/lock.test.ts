import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../src/store/lock';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('KeyedLock', () => {
  it('runs work on one key one at a time, in order', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        lock.run('k', async () => {
          inside++;
          most = Math.max(most, inside);
          await tick();
          log.push(String(i));
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(log).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    expect(lock.size).toBe(0);
  });

  it('lets different keys run side by side', async () => {
    const lock = new KeyedLock();
    let inside = 0;
    let most = 0;
    await Promise.all(
      ['a', 'b', 'c'].map((key) =>
        lock.run(key, async () => {
          inside++;
          most = Math.max(most, inside);
          await tick();
          inside--;
        }),
      ),
    );
    expect(most).toBe(3);
  });

  it('passes results and errors through and keeps going after an error', async () => {
    const lock = new KeyedLock();
    await expect(lock.run('k', async () => 42)).resolves.toBe(42);
    await expect(
      lock.run('k', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(lock.run('k', async () => 'after')).resolves.toBe('after');
    expect(lock.size).toBe(0);
  });
});
