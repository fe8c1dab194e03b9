import { afterAll, beforeAll } from 'vitest';
import type { Trip } from '@wayfarer/contracts';
import { largeJpeg, png } from '../fixtures';
import { startTrips, type Harness } from './harness';

export let h: Harness;
export let big: Buffer;
export let small: Buffer;

export type Envelope = {
  id: string;
  type: string;
  version: number;
  aggregateId: string;
  payload: Record<string, unknown> & { tripId: string; destinations: Record<string, unknown>[] };
};

export const today = () => new Date().toISOString().slice(0, 10);

/** `trip` as answered once every display variant is ready: plain photo URLs. */
export const ready = (trip: Trip): Trip => ({
  ...trip,
  destinations: trip.destinations.map((d) => ({
    ...d,
    photos: d.photos.map((url) => url.replace(/\?pending=1$/, '')),
  })),
});

/** Boots trips for the test file that calls it (once, before its tests), and closes it after. */
export function useTripsHarness(): void {
  beforeAll(async () => {
    h = await startTrips();
    [big, small] = await Promise.all([largeJpeg(3000, 2000), png(300, 200)]);
  });
  afterAll(async () => {
    await h?.close();
  });
}
