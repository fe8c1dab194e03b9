import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, type ImportResult } from '@wayfarer/contracts';
import { ApiError } from '../api/client';
import { uploadImport } from './api';
import { importReducer, isRetryable, type ImportState } from './importState';

/**
 * The import screen sends one `Idempotency-Key` per chosen
 * file and the same one when that file is sent again after a lost answer, so the service
 * answers (or finishes) the first import instead of making a second copy.
 */

const result: ImportResult = {
  format: 'gpx',
  trips: [],
  skipped: { photos: 0, destinations: 0, trips: 0 },
  message: 'Imported 8 trips.',
};

/** A stand-in XMLHttpRequest answering each send with the next of `answers` (0: no answer). */
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
    getResponseHeader() {
      return null;
    }
    send() {
      sent.push(this.headers);
      const status = answers.shift() ?? 201;
      setTimeout(() => {
        if (status === 0) return this.dispatchEvent(new Event('error'));
        this.status = status;
        this.responseText = JSON.stringify(
          status === 201
            ? result
            : { message: 'The trips service answered badly. Please try again.' },
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

/** The file as the picker gives it: choosing it again gives another File of the same file. */
const chosen = (name = 'polarsteps.zip', lastModified = 1_700_000_000_000) =>
  new File(['PK\u0003\u0004 the export'], name, { type: 'application/zip', lastModified });

describe('uploadImport: one Idempotency-Key per chosen file', () => {
  it('the same key when the same file is sent again after a 502 or no answer; a new one after it succeeded', async () => {
    const sent = fakeXhr([502, 0, 201, 201]);
    await expect(uploadImport(chosen())).rejects.toBeInstanceOf(ApiError);
    // chosen again in the picker (another File object of the same file): the same import
    await expect(uploadImport(chosen())).rejects.toBeInstanceOf(ApiError);
    await expect(uploadImport(chosen())).resolves.toEqual(result);
    // imported, then chosen once more: the user means a new import
    await uploadImport(chosen());
    const keys = sent.map((headers) => headers[IDEMPOTENCY_KEY_HEADER]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('another file has another key, even while the first is unfinished', async () => {
    const sent = fakeXhr([502, 502]);
    await uploadImport(chosen('a.zip')).catch(() => undefined);
    await uploadImport(chosen('b.zip')).catch(() => undefined);
    expect(sent[1]![IDEMPOTENCY_KEY_HEADER]).not.toBe(sent[0]![IDEMPOTENCY_KEY_HEADER]);
  });
});

describe('a failed import may be tried again when its answer was lost', () => {
  const uploading: ImportState = {
    status: 'uploading',
    run: 1,
    fileName: 'polarsteps.zip',
    progress: null,
  };

  it('no answer or a 5xx: retryable; a refusal of the file (4xx): not', () => {
    expect([0, 500, 502, 503, 504].map(isRetryable)).toEqual([true, true, true, true, true]);
    expect([400, 413, 422, 429].map(isRetryable)).toEqual([false, false, false, false]);
    expect(
      importReducer(uploading, { type: 'failed', run: 1, message: 'x', retryable: true }),
    ).toEqual({ status: 'failed', message: 'x', retryable: true });
    expect(importReducer(uploading, { type: 'failed', run: 1, message: 'x' })).toEqual({
      status: 'failed',
      message: 'x',
    });
  });
});
