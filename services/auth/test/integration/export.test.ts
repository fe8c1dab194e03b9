import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR, ExportAreaDocument, INTERNAL_EXPORT_PATH } from '@wayfarer/contracts';
import { identityFor, newUser, register, sessionCookie, startAuth, type Harness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startAuth();
});

afterAll(async () => {
  await h?.close();
});

describe('the profile area of the account export', () => {
  it("holds the user's name, email, created date and picture, never a password hash", async () => {
    const ann = newUser('ann');
    const bob = newUser('bob');
    const before = Date.now();
    const res = await register(h.app, ann);
    expect(res.statusCode).toBe(201);
    expect((await register(h.app, bob)).statusCode).toBe(201);
    const token = sessionCookie(res)!.value;
    const userId = res.json<{ userId: string }>().userId;

    const answer = await h.app.inject({
      method: 'GET',
      url: INTERNAL_EXPORT_PATH,
      headers: identityFor(token),
    });
    expect(answer.statusCode).toBe(200);
    const doc = ExportAreaDocument.parse(answer.json());
    expect(doc).toEqual({
      area: 'profile',
      items: [
        {
          id: userId,
          name: ann.name,
          email: ann.email,
          createdAt: expect.any(String),
          profilePicture: DEFAULT_AVATAR,
        },
      ],
    });
    const createdAt = Date.parse((doc.items[0] as { createdAt: string }).createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(answer.body).not.toContain(bob.email);
    expect(answer.body).not.toContain('argon2');
  });
});
