import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSocial, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startSocial();
});
afterAll(async () => {
  await h?.close();
});

describe('GET /readyz', () => {
  // the harness resolves once both consumers have joined their groups
  it('checks PostgreSQL and that the users and trips consumers have joined their groups', async () => {
    const res = await h.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      service: 'social',
      checks: { postgres: 'ok', consumers: 'ok' },
    });
  });
});
