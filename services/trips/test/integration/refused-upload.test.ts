import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayHeaders, postFormOverHttp, type HttpOutcome } from '@wayfarer/test-kit';
import { Messages } from '../../src/domain/limits';
import { newUserId, startTrips, tripFields, type Harness } from './harness';

/*
 * A refused photo must reach the client as the service's 400, over real HTTP: the
 * service refuses a non-image by its first bytes while the client is still sending the rest,
 * and used to answer and close at once (Node's fetch: EPIPE for 1 KB files, the gateway's 502
 * for 300 KB and 3 MB ones). It now reads the rest of the body before answering.
 */

let h: Harness;
let base: string;

beforeAll(async () => {
  h = await startTrips();
  base = await h.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await h?.close();
});

const KB = 1024;
const TRIES = 5;

describe('POST /api/trips with a photo that is not an image, over real HTTP', () => {
  it.each([
    ['1 KB', KB],
    ['300 KB', 300 * KB],
    ['3 MB', 3 * KB * KB],
  ])('answers the 400 every time with a %s file', async (_size, bytes) => {
    const userId = newUserId();
    const outcomes: HttpOutcome[] = [];
    for (let i = 0; i < TRIES; i++) {
      const form = new FormData();
      for (const [name, value] of tripFields({ name: 'Notes' }, [
        { name: 'Oslo', latitude: '59.91', longitude: '10.75' },
      ])) {
        form.append(name, value);
      }
      form.append(
        'photos[0]',
        new Blob([Buffer.alloc(bytes, 'a')], { type: 'text/plain' }),
        'notes.txt',
      );
      outcomes.push(
        await postFormOverHttp(
          `${base}/api/trips`,
          form,
          gatewayHeaders('POST', '/api/trips', { userId }),
        ),
      );
    }
    const expected = {
      status: 400,
      body: { error: 'bad_request', message: `photos[0] ("notes.txt") ${Messages.notAnImage}` },
      answeredBeforeBodySent: false,
      connectionClosed: false,
    };
    expect(outcomes).toEqual(Array.from({ length: TRIES }, () => expected));
    expect(await h.trips.listByOwner(userId)).toEqual([]);
  });
});
