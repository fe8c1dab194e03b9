import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger';
import { composeService, runClosers } from '../src/service';

const logger = createLogger('test', 'silent');

describe('composeService', () => {
  it('closes the app, then what the root opened, newest first, once', async () => {
    const closed: string[] = [];
    const svc = await composeService(async (onClose) => {
      onClose(() => closed.push('pool'));
      onClose(() => closed.push('relay'));
      onClose(() => closed.push('consumer'));
      const app = Fastify();
      app.addHook('onClose', async () => {
        closed.push('app');
      });
      return { app, logger, extra: 42 };
    });
    expect(svc.extra).toBe(42);
    await Promise.all([svc.close(), svc.close()]);
    await svc.close();
    expect(closed).toEqual(['app', 'consumer', 'relay', 'pool']);
  });

  it('a root that fails half way closes what it had opened and passes the error on', async () => {
    const closed: string[] = [];
    const build = composeService(async (onClose) => {
      onClose(() => closed.push('pool'));
      onClose(() => closed.push('redis'));
      throw new Error('the bucket could not be created');
    });
    await expect(build).rejects.toThrow('the bucket could not be created');
    expect(closed).toEqual(['redis', 'pool']);
  });
});

describe('runClosers', () => {
  it('runs every closer even when one fails, then throws the first failure', async () => {
    const ran: number[] = [];
    const run = runClosers([
      () => ran.push(1),
      () => {
        throw new Error('first');
      },
      () => ran.push(3),
      () => Promise.reject(new Error('second')),
    ]);
    await expect(run).rejects.toThrow('first');
    expect(ran).toEqual([1, 3]);
  });
});
