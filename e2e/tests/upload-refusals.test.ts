import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegisterMessages } from '@wayfarer/contracts';
import { api, signUp, tripForm as emptyTripForm, type Account } from '../support/api';
import { baseUrl, uniqueEmail } from '../support/browser';

/**
 * A file that is not an image, sent as a trip photo or a profile picture, through the real
 * gateway to the real trips and auth services: the service refuses it from its first
 * bytes and answers 400 before the rest of the body is in; whatever the file's size and however
 * the client sends it (fetch + FormData as the browser, curl -F), the client reads that 400 and
 * its message, never a 502 or a reset connection. Five times each, since the failure was a race.
 */

const SIZES = [1024, 300 * 1024, 3 * 1024 * 1024];
const TRIES = 5;
const TRIP_PHOTO_REFUSED = /must be a JPEG, PNG, WebP or GIF image\.$/;
/** A file of `size` bytes of text, with an image's name and type. */
const notAnImage = (size: number) => Buffer.alloc(size, 'not an image. ');

const tripForm = (photo: Blob) => {
  const form = emptyTripForm(
    'Refused photos',
    [['Lisbon, Portugal', '38.72', '-9.14', '2026-04-01', '2026-04-02']],
    '',
    0,
  ); // no photo of its own: the refused one below
  form.append('photos[0]', photo, 'notes.jpg');
  return form;
};

const registerForm = (picture: Blob) => {
  const form = new FormData();
  form.append('name', 'Refused Picture');
  form.append('email', uniqueEmail('refused-picture'));
  form.append('password', 'a long password');
  form.append('profilePicture', picture, 'me.png');
  return form;
};

function curl(
  args: string[],
): Promise<{ code: number; status: string; body: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '-w', '\n%{http_code}', ...args], (err, stdout, stderr) => {
      const at = stdout.lastIndexOf('\n');
      resolve({
        code: err ? Number(err.code ?? 1) : 0,
        status: stdout.slice(at + 1),
        body: stdout.slice(0, at),
        stderr: stderr.trim(),
      });
    });
  });
}

describe('a non-image upload is answered by the service, through the gateway', () => {
  let owner: Account;
  let dir: string;
  const tripIds = async () =>
    ((await (await api('/api/mytrips', owner)).json()) as { _id: string }[]).map((t) => t._id);

  beforeAll(async () => {
    owner = await signUp('Photo Refused', 'refused');
    dir = await mkdtemp(join(tmpdir(), 'wayfarer-refused-'));
    for (const size of SIZES) await writeFile(join(dir, `${size}.jpg`), notAnImage(size));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a trip photo, by fetch + FormData: 400 with the service’s message, every size, every time', async () => {
    const before = await tripIds();
    for (const size of SIZES) {
      for (let i = 0; i < TRIES; i++) {
        const photo = new Blob([new Uint8Array(notAnImage(size))], { type: 'image/jpeg' });
        const res = await api('/api/trips', owner, { method: 'POST', body: tripForm(photo) });
        const answer = (await res.json()) as { error: string; message: string };
        expect(res.status, `${size} bytes: ${answer.message}`).toBe(400);
        expect(answer.message, `${size} bytes`).toMatch(TRIP_PHOTO_REFUSED);
      }
    }
    expect(await tripIds()).toEqual(before);
  });

  it('a profile picture, by fetch + FormData: 400 with the service’s message, every size, every time', async () => {
    for (const size of SIZES) {
      for (let i = 0; i < TRIES; i++) {
        const picture = new Blob([new Uint8Array(notAnImage(size))], { type: 'image/png' });
        const res = await fetch(`${baseUrl()}/api/register`, {
          method: 'POST',
          body: registerForm(picture),
        });
        expect(res.status, `${size} bytes`).toBe(400);
        expect(await res.json(), `${size} bytes`).toMatchObject({
          message: RegisterMessages.pictureNotImage,
        });
      }
    }
  });

  it('both, by curl -F: 400 with the service’s message, every size, every time', async () => {
    const before = await tripIds();
    for (const size of SIZES) {
      const file = join(dir, `${size}.jpg`);
      for (let i = 0; i < TRIES; i++) {
        const trip = await curl([
          '-H',
          `cookie: ${owner.header}`,
          ...['name=Refused photos', 'startDate=2026-04-01', 'endDate=2026-04-02']
            .concat([
              'destinations[0][name]=Lisbon, Portugal',
              'destinations[0][startDate]=2026-04-01',
              'destinations[0][endDate]=2026-04-02',
              'destinations[0][latitude]=38.72',
              'destinations[0][longitude]=-9.14',
            ])
            .flatMap((field) => ['--form-string', field]),
          '-F',
          `photos[0]=@${file};type=image/jpeg`,
          `${baseUrl()}/api/trips`,
        ]);
        expect(
          { code: trip.code, stderr: trip.stderr, status: trip.status },
          `${size} bytes`,
        ).toEqual({ code: 0, stderr: '', status: '400' });
        expect(JSON.parse(trip.body).message, `${size} bytes`).toMatch(TRIP_PHOTO_REFUSED);

        const register = await curl([
          '--form-string',
          'name=Refused Picture',
          '--form-string',
          `email=${uniqueEmail('refused-picture')}`,
          '--form-string',
          'password=a long password',
          '-F',
          `profilePicture=@${file};type=image/png`,
          `${baseUrl()}/api/register`,
        ]);
        expect({ code: register.code, status: register.status }, `${size} bytes`).toEqual({
          code: 0,
          status: '400',
        });
        expect(JSON.parse(register.body).message, `${size} bytes`).toBe(
          RegisterMessages.pictureNotImage,
        );
      }
    }
    expect(await tripIds()).toEqual(before);
  });
});
