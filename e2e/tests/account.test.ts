import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { AccountMessages, type Friend, type SearchUsersResponse } from '@wayfarer/contracts';
import { testInfra } from '@wayfarer/test-kit';
import { befriend, json, login, register } from '../support/account';
import { api } from '../support/api';
import { makePng } from '../support/browser';

/**
 * Changing what you saved, through the real gateway and services: a new name and
 * picture reach a friend's list and a stranger's search (social follows auth's user.updated),
 * the old picture's object is gone; a password change signs out every other session at the
 * gateway while the current one stays; a wrong current password is a 400 the login throttle
 * counts.
 */
const poll = { timeout: 30_000, interval: 200 };

describe('your account', () => {
  it('a new name and picture reach a friend and a search; the old picture is gone', async () => {
    const ada = await register('Ada Before', makePng(64));
    const bob = await register('Bob Friend');
    const cat = await register('Cat Stranger');
    await befriend(ada, bob);
    const before = (await (await api('/api/userDetails', ada)).json()) as {
      profilePicture: string;
    };
    expect((await api(before.profilePicture, ada)).status).toBe(200);

    const form = new FormData();
    form.append('name', `Ada Renamed ${ada.userId.slice(0, 8)}`);
    form.append(
      'profilePicture',
      new Blob([new Uint8Array(makePng(80))], { type: 'image/png' }),
      'new.png',
    );
    const res = await api('/api/userDetails', ada, { method: 'PATCH', body: form });
    expect(res.status).toBe(200);
    const after = (await res.json()) as { username: string; profilePicture: string };
    expect(after.username).toBe(`Ada Renamed ${ada.userId.slice(0, 8)}`);
    expect(after.profilePicture).not.toBe(before.profilePicture);
    expect((await api('/api/userDetails', ada)).status).toBe(200);

    // the friend's list and a stranger's search show the new ones (social, from Kafka)
    await expect
      .poll(async () => {
        const friends = (await (await api('/api/friends', bob)).json()) as Friend[];
        const friend = friends.find((f) => f.id === ada.userId);
        return friend && [friend.name, friend.picture];
      }, poll)
      .toEqual([after.username, after.profilePicture]);
    const search = (await (
      await api(`/api/search-users?query=${encodeURIComponent(after.username)}`, cat)
    ).json()) as SearchUsersResponse;
    expect(search.users.map((u) => [u._id, u.name, u.picture])).toEqual([
      [ada.userId, after.username, after.profilePicture],
    ]);
    // the new picture is served, the old object is gone from MinIO
    expect((await api(after.profilePicture, bob)).status).toBe(200);
    expect((await api(before.profilePicture, ada)).status).toBe(404);
  });

  it('a password change signs out every other session at the gateway; this one stays', async () => {
    const ada = await register('Ada Password');
    const other = await login(ada);
    expect((await api('/api/protected', other)).status).toBe(200);
    const newPassword = `${ada.password} changed`;

    const res = await api('/api/password', ada, {
      method: 'POST',
      ...json({ currentPassword: ada.password, newPassword }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: AccountMessages.passwordChanged });

    // the gateway refuses the other session (its revocation copy: within 1 s at the latest)
    await expect.poll(async () => (await api('/api/protected', other)).status, poll).toBe(401);
    expect((await api('/api/protected', ada)).status).toBe(200);
    const oldLogin = await api('/api/login', undefined, {
      method: 'POST',
      ...json({ email: ada.email, password: ada.password }),
    });
    expect(oldLogin.status).toBe(401);
    await login(ada, newPassword);
  });

  it('a wrong current password is a 400 the login throttle counts', async () => {
    const ada = await register('Ada Wrong');
    const res = await api('/api/password', ada, {
      method: 'POST',
      ...json({ currentPassword: 'not the password', newPassword: 'another long password' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'invalid_password',
      message: AccountMessages.wrongPassword,
    });
    const redis = new Redis(testInfra().redisUrl);
    try {
      expect(await redis.get(`auth:login-failures:email:${ada.email}`)).toBe('1');
    } finally {
      redis.disconnect();
    }
    // and the password did not change
    await login(ada);
  });
});
