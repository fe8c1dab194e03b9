import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startSocial, type Harness } from './harness';

/*
 * Every text input of social is plain text: a control character in a query or path
 * parameter is a 400 naming it, before PostgreSQL sees it (a NUL in ?query= was a 500: text
 * cannot hold NUL there), and nothing changes.
 */

let h: Harness;
let me: string;

beforeAll(async () => {
  h = await startSocial();
  me = await h.register('Plain Text');
});

afterAll(async () => {
  await h?.close();
});

const refusal = (kind: 'Path' | 'Query', name: string, code = '0000', position = 1) => ({
  error: 'bad_request',
  message: `${kind} parameter ${name} must not contain control characters: found U+${code} at position ${position}.`,
});

describe('social refuses control characters in every parameter', () => {
  it.each([
    ['GET', '/api/search-users?query=%00', refusal('Query', 'query')],
    ['GET', '/api/search-users?query=Zo%C3%AB%7F', refusal('Query', 'query', '007F', 4)],
    ['GET', '/api/friends?cursor=%00', refusal('Query', 'cursor')],
    ['GET', '/api/friends?limit=5%0A', refusal('Query', 'limit', '000A', 2)],
    ['GET', '/api/friends/%00/destinations/d1', refusal('Path', 'friendId')],
    ['GET', '/api/friends/u1/destinations/%1B', refusal('Path', 'destinationId', '001B')],
    ['POST', '/api/add-friend/%00', refusal('Path', 'id')],
    ['POST', '/api/acceptFriend/a%00', refusal('Path', 'id', '0000', 2)],
    ['POST', '/api/declineFriend/%00', refusal('Path', 'id')],
    ['DELETE', '/api/friends/%00', refusal('Path', 'id')],
  ])('%s %s is a 400, and nothing changes', async (method, url, body) => {
    const before = await h.counts();
    const res = await h.app.inject({ method: method as 'GET', url, headers: as(me) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(body);
    expect(await h.counts()).toEqual(before);
  });

  it('still searches plain text with accents and symbols', async () => {
    const res = await h.app.inject({
      url: '/api/search-users?query=Plain%20T%C3%A9xt',
      headers: as(me),
    });
    expect(res.statusCode).toBe(200);
  });
});
