import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Topics } from '@wayfarer/contracts';
import { localInfra, waitForEvents } from '@wayfarer/test-kit';
import { newUser, register, startAuth, type Harness } from './harness';

let h: Harness;
let kafkaStopped = false;
beforeAll(async () => {
  h = await startAuth();
});
afterAll(async () => {
  if (kafkaStopped) localInfra('up', 'kafka');
  await h?.close();
});

const publishedAt = async (userId: string) =>
  (await h.pool.query('SELECT published_at FROM outbox WHERE key = $1', [userId])).rows[0]
    ?.published_at;

describe('Kafka down', () => {
  it('registration still succeeds; the event goes out once Kafka is back', async () => {
    // the relay is connected and working before the broker goes away
    const first = await register(h.app, newUser('before'));
    const firstId = first.json<{ userId: string }>().userId;
    await waitForEvents(
      Topics.authUser,
      (e: { payload: { userId: string } }) => e.payload.userId === firstId,
    );

    localInfra('down', 'kafka');
    kafkaStopped = true;

    // the write does not wait for Kafka (a hang would fail the test)
    const res = await register(h.app, newUser('offline'));
    expect(res.statusCode).toBe(201);
    const { userId } = res.json<{ userId: string }>();
    // the relay tries to publish what is pending and cannot: the event stays pending. (A flush
    // finds nothing while the relay's own round holds the row, SKIP LOCKED: ask again then.)
    await vi.waitFor(() => expect(h.relay.flush()).rejects.toThrow(), { timeout: 30_000 });
    const { rows } = await h.pool.query('SELECT published_at FROM outbox WHERE key = $1', [userId]);
    expect(rows).toHaveLength(1);
    expect(rows[0].published_at).toBeNull();

    localInfra('up', 'kafka');
    kafkaStopped = false;

    const [event] = await waitForEvents<{ type: string; payload: { userId: string } }>(
      Topics.authUser,
      (e) => e.payload.userId === userId,
      { timeoutMs: 60_000 },
    );
    expect(event!.type).toBe('user.registered');
    await expect.poll(() => publishedAt(userId), { timeout: 10_000 }).not.toBeNull();
  }, 180_000);

  it('a broker restart while nothing is pending: the next event still goes out', async () => {
    // the relay's producer is connected (previous test); the broker restarts under it
    localInfra('down', 'kafka');
    kafkaStopped = true;
    localInfra('up', 'kafka');
    kafkaStopped = false;

    const res = await register(h.app, newUser('after-restart'));
    expect(res.statusCode).toBe(201);
    const { userId } = res.json<{ userId: string }>();
    await waitForEvents(
      Topics.authUser,
      (e: { payload: { userId: string } }) => e.payload.userId === userId,
      {
        timeoutMs: 60_000,
      },
    );
    await expect.poll(() => publishedAt(userId), { timeout: 10_000 }).not.toBeNull();
  }, 180_000);
});
