import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { largeJpeg, png } from '../fixtures';
import { startTrips, tripFields, type Harness } from './harness';

export let h: Harness;
export let image: Buffer;
export let jpeg: Buffer;

export const tripCount = () => h.trips.collection.countDocuments({});
export const objectCount = async () => (await h.photos.list()).length;

/** Runs `fn` and checks it created no trip and left nothing in the bucket. */
export async function expectNoTrace(fn: () => Promise<void>) {
  await h.variants.idle(); // earlier trips' display variants are all stored
  const [trips, objects] = [await tripCount(), await objectCount()];
  await fn();
  expect(await tripCount()).toBe(trips);
  expect(await objectCount()).toBe(objects);
}

export function expect4xx(res: LightMyRequestResponse, status: number, message: RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ error: string; message: string }>();
  expect(body.message).toMatch(message);
  expect(typeof body.error).toBe('string');
}

export const oslo = { name: 'Oslo', latitude: '59.91', longitude: '10.75' };
export const oneDestination = () => tripFields({ name: 'T' }, [oslo]);

/** Boots trips for the test file that calls it (once, before its tests), and closes it after. */
export function useSecurityHarness(): void {
  beforeAll(async () => {
    h = await startTrips();
    [image, jpeg] = await Promise.all([png(), largeJpeg(300, 200)]);
  });
  afterAll(async () => {
    await h?.close();
  });
}
