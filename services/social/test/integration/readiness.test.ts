import { describe, expect, it } from 'vitest';
import { type Harness, socialPerFile } from './harness';

let h: Harness;
socialPerFile((harness) => (h = harness));

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
