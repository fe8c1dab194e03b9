import { expect, inject } from 'vitest';
import { baseUrl, makePng, uniqueEmail } from './browser';

/** A signed-up user: the session cookie for a browser context and as a request header. */
export interface Account {
  userId: string;
  cookie: { name: string; value: string };
  header: string;
}

/** The session of a `Set-Cookie` answer, as `Account` keeps it. */
export function sessionOf(res: Response, userId: string): Account {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith('wayfarer_session='));
  if (!raw) throw new Error('no session cookie');
  const pair = raw.split(';', 1)[0]!;
  const eq = pair.indexOf('=');
  return { userId, cookie: { name: pair.slice(0, eq), value: pair.slice(eq + 1) }, header: pair };
}

/** Registers through the gateway with these credentials (a PNG picture if given): its session. */
export async function registerWith(
  name: string,
  email: string,
  password: string,
  picture?: Buffer,
): Promise<Account> {
  const form = new FormData();
  form.append('name', name);
  form.append('email', email);
  form.append('password', password);
  if (picture) {
    form.append(
      'profilePicture',
      new Blob([new Uint8Array(picture)], { type: 'image/png' }),
      'me.png',
    );
  }
  const res = await fetch(`${baseUrl()}/api/register`, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  const { userId } = (await res.json()) as { userId: string };
  return sessionOf(res, userId);
}

/** Registers a new user through the real API and keeps its session (with a PNG picture if given). */
export function signUp(name: string, prefix = 'e2e', picture?: Buffer): Promise<Account> {
  return registerWith(name, uniqueEmail(prefix), 'a long password', picture);
}

/** `fetch` on the gateway as `account` (or anonymously). */
export function api(path: string, account?: Account, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (account) headers.set('cookie', account.header);
  return fetch(`${baseUrl()}${path}`, { ...init, headers });
}

export interface TripSummary {
  _id: string;
  name: string;
  destinations: { _id: string; name: string; photos: string[] }[];
}

/** A trip's places: name, latitude, longitude, start and end dates. */
export type TripPlaces = readonly (readonly [
  name: string,
  lat: string,
  lng: string,
  start: string,
  end: string,
])[];

/**
 * A trip form with the spec's multipart fields, `photosEach` photos (96 px PNGs) per
 * destination, the first destination's story `story`.
 */
export function tripForm(name: string, places: TripPlaces, story = '', photosEach = 1): FormData {
  const form = new FormData();
  form.append('name', name);
  form.append('startDate', places[0]?.[3] ?? '');
  form.append('endDate', places.at(-1)?.[4] ?? '');
  places.forEach(([placeName, lat, lng, start, end], i) => {
    form.append(`destinations[${i}][name]`, placeName);
    form.append(`destinations[${i}][startDate]`, start);
    form.append(`destinations[${i}][endDate]`, end);
    form.append(`destinations[${i}][latitude]`, lat);
    form.append(`destinations[${i}][longitude]`, lng);
    form.append(`destinations[${i}][story]`, i === 0 ? story : '');
    for (let p = 0; p < photosEach; p++) {
      form.append(
        `photos[${i}]`,
        new Blob([new Uint8Array(makePng(96))], { type: 'image/png' }),
        `p${i}-${p}.png`,
      );
    }
  });
  return form;
}

/** Creates a trip through the API (`tripForm`); fails the test unless it is a 201. */
export async function createTrip(
  account: Account,
  name: string,
  places: TripPlaces,
  story = '',
  photosEach = 1,
): Promise<TripSummary> {
  const form = tripForm(name, places, story, photosEach);
  const res = await api('/api/trips', account, { method: 'POST', body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as TripSummary;
}

/**
 * Stops a real service of the e2e stack (e.g. 'trips') for the duration of `during`, then starts
 * it again and waits until it is ready, whatever `during` did.
 */
export async function withServiceDown<T>(name: string, during: () => Promise<T>): Promise<T> {
  const control = inject('controlUrl');
  const call = async (verb: 'stop' | 'start') => {
    const res = await fetch(`${control}/processes/${name}/${verb}`, { method: 'POST' });
    if (res.status !== 204) throw new Error(`${verb} ${name}: ${res.status} ${await res.text()}`);
  };
  await call('stop');
  try {
    return await during();
  } finally {
    await call('start');
  }
}
