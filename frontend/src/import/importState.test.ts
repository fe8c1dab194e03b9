import { afterEach, describe, expect, it, vi } from 'vitest';
import { IMPORT_FIELD, ImportLimits, ImportMessages, type ImportResult } from '@wayfarer/contracts';
import { ApiError } from '../api/client';
import { progressPercent } from '../trips/tripFormState';
import { uploadImport } from './api';
import {
  importFileProblem,
  importNote,
  importReducer,
  initialImportState,
  skippedSummary,
  type ImportState,
} from './importState';

const result: ImportResult = {
  format: 'gpx',
  trips: [],
  skipped: { photos: 0, destinations: 0, trips: 0 },
  message: 'Imported 1 trip.',
};

describe('importReducer', () => {
  it('goes from the upload and its progress to the result', () => {
    let state: ImportState = importReducer(initialImportState, {
      type: 'start',
      run: 1,
      fileName: 'alps.gpx',
    });
    expect(state).toEqual({ status: 'uploading', run: 1, fileName: 'alps.gpx', progress: null });
    state = importReducer(state, { type: 'progress', run: 1, progress: { loaded: 5, total: 10 } });
    expect(state.status === 'uploading' && progressPercent(state.progress)).toBe(50);
    state = importReducer(state, { type: 'succeeded', run: 1, result });
    expect(state).toEqual({ status: 'done', result });
    expect(importReducer(state, { type: 'dismiss' })).toEqual(initialImportState);
  });

  it('ignores what an older upload reports, and keeps an upload under way on dismiss', () => {
    const uploading = importReducer(initialImportState, { type: 'start', run: 2, fileName: 'b' });
    expect(importReducer(uploading, { type: 'succeeded', run: 1, result })).toBe(uploading);
    expect(importReducer(uploading, { type: 'failed', run: 1, message: 'x' })).toBe(uploading);
    expect(
      importReducer(uploading, { type: 'progress', run: 1, progress: { loaded: 1, total: 2 } }),
    ).toBe(uploading);
    expect(importReducer(uploading, { type: 'dismiss' })).toBe(uploading);
    expect(importReducer(uploading, { type: 'failed', run: 2, message: 'Nope.' })).toEqual({
      status: 'failed',
      message: 'Nope.',
    });
  });

  it('says what it is doing: sending, then reading once everything is sent', () => {
    const state = { status: 'uploading', run: 1, fileName: 'x.zip', progress: null } as const;
    expect(importNote(state)).toBe('Importing “x.zip”…');
    expect(importNote({ ...state, progress: { loaded: 10, total: 10 } })).toBe(
      'Reading “x.zip” and creating your trips…',
    );
  });

  it('refuses empty and oversized files before sending them, with the service’s words', () => {
    expect(importFileProblem({ name: 'a.gpx', size: 0 })).toBe(ImportMessages.empty);
    expect(importFileProblem({ name: 'a.zip', size: ImportLimits.fileMaxBytes + 1 })).toBe(
      ImportMessages.fileTooLarge,
    );
    expect(importFileProblem({ name: 'a.GPX', size: ImportLimits.xmlMaxBytes + 1 })).toBe(
      ImportMessages.xmlTooLarge,
    );
    expect(importFileProblem({ name: 'a.zip', size: ImportLimits.xmlMaxBytes + 1 })).toBeNull();
    expect(importFileProblem({ name: 'a.gpx', size: 1000 })).toBeNull();
  });

  it('sums up what was skipped', () => {
    expect(skippedSummary({ photos: 0, destinations: 0, trips: 0 })).toBe('');
    expect(skippedSummary({ photos: 3, destinations: 1, trips: 0 })).toBe(
      'Skipped: 1 place, 3 photos (over the limits or unreadable).',
    );
  });
});

/** A stand-in XMLHttpRequest answering `status` with `body`, recording what was sent. */
function fakeXhr(status: number, body: unknown) {
  const sent: { url: string; body: FormData | null }[] = [];
  class FakeXhr extends EventTarget {
    status = 0;
    responseText = '';
    responseType = '';
    withCredentials = false;
    readonly upload = new EventTarget();
    private url = '';
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    abort() {}
    getResponseHeader() {
      return null;
    }
    send(form: FormData) {
      sent.push({ url: this.url, body: form });
      setTimeout(() => {
        const progress = Object.assign(new Event('progress'), {
          lengthComputable: true,
          loaded: 4,
          total: 8,
        });
        this.upload.dispatchEvent(progress);
        this.status = status;
        this.responseText = JSON.stringify(body);
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

describe('uploadImport', () => {
  const file = new File(['<gpx/>'], 'alps.gpx', { type: 'application/gpx+xml' });

  it('posts the file in the `file` part and reports progress', async () => {
    const sent = fakeXhr(201, result);
    const progress: number[] = [];
    await expect(
      uploadImport(file, { onProgress: (p) => progress.push(p.loaded / p.total) }),
    ).resolves.toEqual(result);
    expect(sent[0]!.url).toBe('/api/import');
    expect((sent[0]!.body!.get(IMPORT_FIELD) as File).name).toBe('alps.gpx');
    expect(progress).toEqual([0.5]);
  });

  it('rejects with the service’s message', async () => {
    fakeXhr(400, { error: 'bad_request', message: ImportMessages.unsupported });
    const error = await uploadImport(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).serverMessage).toBe(ImportMessages.unsupported);
  });
});
