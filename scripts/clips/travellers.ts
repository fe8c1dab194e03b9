import { roomIdOf } from '@wayfarer/contracts';
import { DEMO_PASSWORD, USERS, type UserKey } from '../demo/data';
import { avatarPng } from '../demo/images';
import { api, cookieOf, type SignedIn } from './browser';

/**
 * Travellers for one clip only, with a demo user's name and picture: what a clip adds (a
 * bucket list place, chat messages) is new on every run, never a duplicate of the last run's.
 */
export async function cloneDemoUser(baseUrl: string, key: UserKey): Promise<SignedIn> {
  const user = USERS.find((u) => u.key === key)!;
  const form = new FormData();
  form.append('name', user.name);
  form.append('email', `${key}.clips.${Date.now().toString(36)}@example.com`);
  form.append('password', DEMO_PASSWORD);
  const avatar = await avatarPng(user.avatar);
  form.append('profilePicture', new Blob([new Uint8Array(avatar)], { type: 'image/png' }), 'a.png');
  const res = await fetch(`${baseUrl}/api/register`, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  const { userId } = (await res.json()) as { userId: string };
  return { id: userId, name: user.name, cookie: cookieOf(res) };
}

/** Retries `attempt` until it gives a value (not undefined), for 30 s. */
async function eventually<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * `a` asks `b`, `b` accepts; returns once chat knows they are friends (the services learn new
 * users and friendships from each other's events).
 */
export async function makeFriends(baseUrl: string, a: SignedIn, b: SignedIn): Promise<void> {
  await eventually('social to know the new user', async () => {
    const res = await api(baseUrl, a, `/api/add-friend/${b.id}`, { method: 'POST' });
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw new Error(`add-friend: ${res.status} ${await res.text()}`);
    return true;
  });
  const accepted = await api(baseUrl, b, `/api/acceptFriend/${a.id}`, { method: 'POST' });
  if (accepted.status !== 200) throw new Error(`acceptFriend: ${accepted.status}`);
  await eventually('chat to know the friendship', async () => {
    const res = await api(baseUrl, a, `/api/conversation/${roomIdOf(a.id, b.id)}?limit=1`);
    if (res.status === 403) return undefined;
    if (res.status !== 200) throw new Error(`conversation: ${res.status}`);
    return true;
  });
}
