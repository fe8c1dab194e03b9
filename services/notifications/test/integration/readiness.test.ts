import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotifications, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startNotifications();
});
afterAll(async () => {
  await h?.close();
});

describe('GET /readyz', () => {
  // the harness resolves once every consumer has joined its group
  it('checks PostgreSQL and that every consumer has joined its group', async () => {
    const res = await h.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      service: 'notifications',
      checks: { postgres: 'ok', consumers: 'ok' },
    });
  });
});
