import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../src/usecases/keyed-lock';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('KeyedLock', () => {
  it('runs tasks of one key one at a time, in order, and others in parallel', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      lock.run('a', task('a1')),
      lock.run('a', task('a2')),
      lock.run('b', task('b1')),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b1')).toBeLessThan(log.indexOf('end a1'));
    expect(lock.size).toBe(0);
  });

  it('a failing task rejects its caller only and releases the key', async () => {
    const lock = new KeyedLock();
    const failing = lock.run('a', async () => {
      throw new Error('boom');
    });
    const next = lock.run('a', async () => 'ok');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
    expect(lock.size).toBe(0);
  });
});
