import { randomBytes } from 'node:crypto';

/*
 * Ids of trips, destinations and photos. Trip and destination ids are ObjectId-shaped hex
 * strings (24 characters: 4 bytes of creation second, 5 random bytes of this process, a 3-byte
 * counter), so they sort by creation and name their second, as MongoDB's ObjectIds do, without
 * this pure code depending on the driver; journal keys its entries by destination id. Photo ids
 * are 32 random hex characters.
 */

const PROCESS = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

const OBJECT_ID = /^[0-9a-f]{24}$/;
const PHOTO_ID = /^[0-9a-f]{32}$/;

/** A new trip or destination id: ObjectId hex (24 characters, time-ordered). */
export function newId(now: number = Date.now()): string {
  counter = (counter + 1) % 0x1000000;
  const seconds = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, '0');
  return `${seconds}${PROCESS}${counter.toString(16).padStart(6, '0')}`;
}

export function newPhotoId(): string {
  return randomBytes(16).toString('hex');
}

/** Ids are only ones we could have made: anything else is "not found" without a query. */
export const isTripId = (id: string): boolean => OBJECT_ID.test(id);
export const isPhotoId = (id: string): boolean => PHOTO_ID.test(id);

/** When a trip id was made (its first 4 bytes are its creation second). */
export const tripIdTime = (tripId: string): Date =>
  new Date(Number.parseInt(tripId.slice(0, 8), 16) * 1000);
