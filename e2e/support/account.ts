import { expect } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { CHAT_SOCKET_PATH, ChatEvents, type SendMessageAck } from '@wayfarer/contracts';
import { api, registerWith, sessionOf, type Account } from './api';
import { baseUrl, uniqueEmail } from './browser';

/** A signed-up user whose email and password the test knows (for the account routes). */
export interface KnownAccount extends Account {
  email: string;
  password: string;
}

export const json = (body: unknown): RequestInit => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Registers through the gateway (a PNG picture if given), keeping the email and password. */
export async function register(name: string, picture?: Buffer): Promise<KnownAccount> {
  const email = uniqueEmail('account');
  const password = `a long password ${Math.random().toString(36).slice(2)}`;
  return { ...(await registerWith(name, email, password, picture)), email, password };
}

/** Another session of the same user (a login from another browser). */
export async function login(account: KnownAccount, password = account.password): Promise<Account> {
  const res = await api('/api/login', undefined, {
    method: 'POST',
    ...json({ email: account.email, password }),
  });
  expect(res.status).toBe(200);
  return sessionOf(res, account.userId);
}

/** `a` asks `b`, `b` accepts: friends. */
export async function befriend(a: Account, b: Account): Promise<void> {
  expect((await api(`/api/add-friend/${b.userId}`, a, { method: 'POST' })).status).toBe(200);
  expect((await api(`/api/acceptFriend/${a.userId}`, b, { method: 'POST' })).status).toBe(200);
}

/** Sends one chat message from `from` to `to` through the gateway's socket (stored: acked). */
export async function say(from: Account, to: Account, text: string): Promise<void> {
  const socket: Socket = io(baseUrl(), {
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie: from.header, origin: baseUrl() },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const ack = await new Promise<SendMessageAck>((resolve) =>
      socket.emit(
        ChatEvents.sendMessage,
        { to: to.userId, from: from.userId, text, timestamp: Date.now() },
        resolve,
      ),
    );
    expect(ack.ok, JSON.stringify(ack)).toBe(true);
  } finally {
    socket.disconnect();
  }
}
