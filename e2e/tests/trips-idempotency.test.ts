import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAY_HEADER } from '@wayfarer/contracts';
import { startTcpProxy } from '@wayfarer/test-kit/faults';
import {
  api,
  signUp,
  tripForm,
  withServiceDown,
  type Account,
  type TripSummary,
} from '../support/api';
import { baseUrl } from '../support/browser';

/**
 * A retried create makes one trip. Before keys, a trip was inserted whole, then its answer
 * never reached the client
 * (trips was killed 180 ms after the insert; the client got a 502), so the client's retry
 * made a second trip. Here the answer is lost for real on its way back (a TCP proxy between
 * the client and the gateway passes the request and drops the reply), the client retries with
 * the same Idempotency-Key, first while trips is down, then after it restarted, and the user
 * has exactly one trip.
 */

async function myTrips(account: Account): Promise<TripSummary[]> {
  const res = await api('/api/mytrips', account);
  expect(res.status).toBe(200);
  return (await res.json()) as TripSummary[];
}

const postTrip = (account: Account, key: string, form: FormData, url = baseUrl()) =>
  fetch(`${url}/api/trips`, {
    method: 'POST',
    headers: { cookie: account.header, [IDEMPOTENCY_KEY_HEADER]: key },
    body: form,
  });

describe('a trip whose answer is lost on the way back', () => {
  it('is created once: the retry with the same key is answered that trip', async () => {
    const owner = await signUp('Lost Answer', 'trips-idem');
    const key = crypto.randomUUID();
    const form = tripForm(
      'Lost answer',
      [['Bergen, Norway', '60.39', '5.32', '2026-06-01', '2026-06-03']],
      'Rain, then sun.',
    );

    const gateway = new URL(baseUrl());
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: Number(gateway.port) });
    try {
      proxy.dropReplies();
      const lost = postTrip(owner, key, form, `http://127.0.0.1:${proxy.port}`).then(
        (res) => ({ status: res.status }),
        (err: unknown) => ({ error: String(err) }),
      );
      // trips inserted the trip and answered; the answer is dropped on its way back
      await expect
        .poll(async () => (await myTrips(owner)).length, { timeout: 60_000, interval: 500 })
        .toBe(1);
      proxy.cut();
      expect(await lost).toMatchObject({ error: expect.any(String) });
    } finally {
      await proxy.close();
    }
    const [trip] = await myTrips(owner);

    // the client retries at once, while trips is down (restarting): nothing more is made
    await withServiceDown('trips', async () => {
      expect((await postTrip(owner, key, form)).status).toBe(503);
    });
    // and again once it is back: the first answer, the same trip, nothing created
    const retry = await postTrip(owner, key, form);
    expect(retry.status).toBe(201);
    expect(retry.headers.get(IDEMPOTENT_REPLAY_HEADER)).toBe('true');
    const answered = (await retry.json()) as TripSummary;
    expect(answered._id).toBe(trip!._id);
    expect(answered.name).toBe('Lost answer');
    expect((await myTrips(owner)).map((t) => t._id)).toEqual([trip!._id]);
  });
});
