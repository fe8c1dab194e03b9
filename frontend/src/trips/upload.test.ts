import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER } from '@wayfarer/contracts';
import { ApiError } from '../api/client';
import { photoIdOf, uploadPhotos, uploadTrip } from './api';

/**
 * A stand-in XMLHttpRequest (Node has none) answering each `send` with the next of `answers`
 * (0: a network error) and recording the headers each request carried.
 */
function fakeXhr(answers: number[]) {
  const sent: Record<string, string>[] = [];
  class FakeXhr extends EventTarget {
    status = 0;
    responseText = '';
    responseType = '';
    withCredentials = false;
    readonly upload = new EventTarget();
    private readonly headers: Record<string, string> = {};
    open() {}
    setRequestHeader(name: string, value: string) {
      this.headers[name.toLowerCase()] = value;
    }
    abort() {}
    getResponseHeader(name: string) {
      return name.toLowerCase() === 'etag' && this.status === 201 ? '"7"' : null;
    }
    send() {
      sent.push(this.headers);
      const status = answers.shift() ?? 201;
      setTimeout(() => {
        if (status === 0) return this.dispatchEvent(new Event('error'));
        this.status = status;
        this.responseText = JSON.stringify(
          status === 201 ? { _id: 't1' } : { message: 'Bad gateway' },
        );
        this.dispatchEvent(new Event('load'));
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function tripForm(name: string, photo: File): FormData {
  const form = new FormData();
  form.append('name', name);
  form.append('destinations[0][name]', 'Oslo');
  form.append('photos[0]', photo);
  return form;
}

describe('uploadTrip and its Idempotency-Key', () => {
  const photo = new File(['png bytes'], 'fjord.png', { type: 'image/png', lastModified: 7 });

  it('sends the same key when the same form is saved again after a failure, a new one after a success', async () => {
    const sent = fakeXhr([502, 0, 201, 201]);
    await expect(uploadTrip(tripForm('Norway', photo))).rejects.toBeInstanceOf(ApiError);
    await expect(uploadTrip(tripForm('Norway', photo))).rejects.toBeInstanceOf(ApiError);
    await expect(uploadTrip(tripForm('Norway', photo))).resolves.toEqual({ _id: 't1' });
    await uploadTrip(tripForm('Norway', photo)); // saved again after it succeeded: a new trip
    const keys = sent.map((h) => h[IDEMPOTENCY_KEY_HEADER]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('sends another key for a changed form', async () => {
    const sent = fakeXhr([502, 201]);
    await uploadTrip(tripForm('Norway', photo)).catch(() => undefined);
    await uploadTrip(tripForm('Norway and Sweden', photo));
    expect(sent[1]![IDEMPOTENCY_KEY_HEADER]).not.toBe(sent[0]![IDEMPOTENCY_KEY_HEADER]);
  });
});

describe('uploadPhotos (a saved destination gets more photos)', () => {
  const photo = new File(['png bytes'], 'fjord.png', { type: 'image/png', lastModified: 7 });

  it('names the version it adds to in If-Match, keeps its key for a retry and answers the new version', async () => {
    const sent = fakeXhr([0, 201]);
    await expect(uploadPhotos('t1', 'd1', [photo], '"6"')).rejects.toBeInstanceOf(ApiError);
    const answer = await uploadPhotos('t1', 'd1', [photo], '"6"');
    expect(answer.etag).toBe('"7"');
    expect(sent.map((h) => h['if-match'])).toEqual(['"6"', '"6"']);
    expect(sent[1]![IDEMPOTENCY_KEY_HEADER]).toBe(sent[0]![IDEMPOTENCY_KEY_HEADER]);
  });

  it("reads a photo's id from its URL, pending or not", () => {
    expect(photoIdOf('/api/photos/t1/0123abcd?pending=1')).toBe('0123abcd');
    expect(photoIdOf('/api/photos/t1/0123abcd')).toBe('0123abcd');
  });
});
