import { randomUUID } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import { CHAT_SOCKET_PATH } from '@wayfarer/contracts';
import { base } from './stack';

// The journey's client of the containerised gateway: accounts, API calls, the chat socket.

export interface Account {
  userId: string;
  cookie: string;
}

export async function register(name: string, email: string, picture?: Buffer): Promise<Account> {
  const form = new FormData();
  form.append('name', name);
  form.append('email', email);
  form.append('password', `a long password ${randomUUID()}`);
  if (picture) {
    form.append(
      'profilePicture',
      new Blob([new Uint8Array(picture)], { type: 'image/png' }),
      'me.png',
    );
  }
  const res = await fetch(`${base}/api/register`, { method: 'POST', body: form });
  expect(res.status, await res.clone().text()).toBe(201);
  const { userId } = (await res.json()) as { userId: string };
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('wayfarer_session='))
    ?.split(';', 1)[0];
  expect(cookie).toBeDefined();
  return { userId, cookie: cookie! };
}

export function api(path: string, account: Account, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('cookie', account.cookie);
  return fetch(`${base}${path}`, { ...init, headers });
}

export async function connect(account: Account): Promise<Socket> {
  const socket = io(base, {
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie: account.cookie, origin: base },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}
