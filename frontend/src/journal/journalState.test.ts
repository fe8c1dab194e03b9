import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  initialJournalState,
  JOURNAL_BLUR_CANCEL_MS,
  JOURNAL_SAVE_FLAG_RESET_MS,
  JOURNAL_TEXTS,
  JournalController,
  journalReducer,
  type JournalApi,
  type JournalState,
} from './journalState';

const ready = (content = 'Saved text'): JournalState =>
  journalReducer(initialJournalState, { type: 'loaded', content });

describe('journal reducer', () => {
  it('uses the spec timings and texts', () => {
    expect(JOURNAL_BLUR_CANCEL_MS).toBe(300);
    expect(JOURNAL_SAVE_FLAG_RESET_MS).toBe(150);
    expect(JOURNAL_TEXTS).toEqual({
      empty: 'No story shared yet.',
      loadFailed: 'Failed to get journal.',
      saveFailed: 'Failed to save journal',
    });
  });

  it('edit seeds the draft from the saved text; save returns to viewing with the new text', () => {
    let s = journalReducer(ready('Old'), { type: 'edit' });
    expect(s).toMatchObject({ mode: 'edit', draft: 'Old' });
    s = journalReducer(s, { type: 'draft', draft: 'New' });
    s = journalReducer(s, { type: 'save-start' });
    expect(s.saving).toBe(true);
    s = journalReducer(s, { type: 'save-succeeded', content: 'New' });
    expect(s).toMatchObject({ mode: 'view', content: 'New', draft: '', saving: true });
    s = journalReducer(s, { type: 'save-flag-reset' });
    expect(s.saving).toBe(false);
  });

  it('cannot edit before the text loaded or after loading failed', () => {
    expect(journalReducer(initialJournalState, { type: 'edit' }).mode).toBe('view');
    const failed = journalReducer(initialJournalState, { type: 'load-failed', message: 'x' });
    expect(journalReducer(failed, { type: 'edit' }).mode).toBe('view');
  });

  it('blur-timeout cancels editing and drops the draft, but not while a save is underway', () => {
    let s = journalReducer(journalReducer(ready('Old'), { type: 'edit' }), {
      type: 'draft',
      draft: 'Unsaved',
    });
    expect(journalReducer(s, { type: 'blur-timeout' })).toMatchObject({
      mode: 'view',
      draft: '',
      content: 'Old',
    });
    s = journalReducer(s, { type: 'save-start' });
    expect(journalReducer(s, { type: 'blur-timeout' })).toBe(s);
  });

  it('a failed save keeps the editor open with the draft and the message', () => {
    let s = journalReducer(ready('Old'), { type: 'edit' });
    s = journalReducer(s, { type: 'draft', draft: 'New' });
    s = journalReducer(s, { type: 'save-start' });
    s = journalReducer(s, { type: 'save-failed', message: 'Nope' });
    expect(s).toMatchObject({ mode: 'edit', draft: 'New', content: 'Old', saveError: 'Nope' });
    // a second save clears the message
    s = journalReducer(s, { type: 'save-flag-reset' });
    expect(journalReducer(s, { type: 'save-start' }).saveError).toBeNull();
  });

  it('ignores a second save and typing while saving', () => {
    let s = journalReducer(ready(), { type: 'edit' });
    s = journalReducer(s, { type: 'save-start' });
    expect(journalReducer(s, { type: 'save-start' })).toBe(s);
    expect(journalReducer(s, { type: 'draft', draft: 'x' })).toBe(s);
  });
});

function fakeApi(content = '') {
  const saves: { destinationId: string; content: string; date: string }[] = [];
  let failNext: unknown = null;
  let pending: { resolve: () => void; reject: (e: unknown) => void } | null = null;
  let hold = false;
  const api: JournalApi = {
    load: vi.fn(async () => content),
    save: vi.fn(async (body) => {
      saves.push(body);
      if (hold) {
        await new Promise<void>((resolve, reject) => (pending = { resolve, reject }));
      }
      if (failNext) {
        const error = failNext;
        failNext = null;
        throw error;
      }
    }),
  };
  return {
    api,
    saves,
    failWith: (e: unknown) => (failNext = e),
    holdSaves: () => (hold = true),
    release: () => pending?.resolve(),
  };
}

describe('JournalController (timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const NOW = new Date('2025-05-04T10:20:30.000Z');

  async function loaded(content = 'Saved', readOnly = false) {
    const fake = fakeApi(content);
    const c = new JournalController('dest-1', fake.api, { readOnly, now: () => NOW });
    c.load();
    await vi.advanceTimersByTimeAsync(0);
    return { c, ...fake };
  }

  it('loads the saved text (an empty one shows the placeholder)', async () => {
    const { c } = await loaded('');
    expect(c.getState()).toMatchObject({ load: 'ready', content: '', mode: 'view' });
  });

  it('load failure: the server message, else the spec fallback', async () => {
    const api: JournalApi = {
      load: vi.fn().mockRejectedValueOnce({ serverMessage: 'Journal not found.' }),
      save: vi.fn(),
    };
    const c = new JournalController('d', api);
    c.load();
    await vi.advanceTimersByTimeAsync(0);
    expect(c.getState()).toMatchObject({ load: 'failed', loadError: 'Journal not found.' });

    (api.load as ReturnType<typeof vi.fn>).mockRejectedValueOnce(new TypeError('offline'));
    c.load();
    await vi.advanceTimersByTimeAsync(0);
    expect(c.getState().loadError).toBe('Failed to get journal.');
  });

  it('edit -> save POSTs {destinationId, content, date: now} and returns to viewing', async () => {
    const { c, saves } = await loaded('Old');
    c.edit();
    c.setDraft('A new story');
    await c.save();
    expect(saves).toEqual([
      { destinationId: 'dest-1', content: 'A new story', date: '2025-05-04T10:20:30.000Z' },
    ]);
    expect(c.getState()).toMatchObject({ mode: 'view', content: 'A new story', saving: true });
    await vi.advanceTimersByTimeAsync(JOURNAL_SAVE_FLAG_RESET_MS - 1);
    expect(c.getState().saving).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(c.getState().saving).toBe(false);
  });

  it('losing focus cancels editing after 300 ms and discards the draft', async () => {
    const { c, saves } = await loaded('Old');
    c.edit();
    c.setDraft('Unsaved');
    c.focusLeft();
    await vi.advanceTimersByTimeAsync(JOURNAL_BLUR_CANCEL_MS - 1);
    expect(c.getState().mode).toBe('edit');
    await vi.advanceTimersByTimeAsync(1);
    expect(c.getState()).toMatchObject({ mode: 'view', content: 'Old', draft: '' });
    expect(saves).toEqual([]);
  });

  it('focus coming back within 300 ms keeps editing', async () => {
    const { c } = await loaded('Old');
    c.edit();
    c.focusLeft();
    await vi.advanceTimersByTimeAsync(200);
    c.focusReturned();
    await vi.advanceTimersByTimeAsync(500);
    expect(c.getState().mode).toBe('edit');
  });

  it('a save started after the blur wins: the editor is not cancelled under it', async () => {
    const { c, holdSaves, release } = await loaded('Old');
    holdSaves();
    c.edit();
    c.setDraft('Kept');
    c.focusLeft(); // clicking the save icon blurs the textarea first
    const saving = c.save();
    await vi.advanceTimersByTimeAsync(JOURNAL_BLUR_CANCEL_MS + 50);
    expect(c.getState()).toMatchObject({ mode: 'edit', saving: true, draft: 'Kept' });
    release();
    await saving;
    expect(c.getState()).toMatchObject({ mode: 'view', content: 'Kept' });
  });

  it('a failed save keeps the editor open with the message; a blur after the flag resets cancels', async () => {
    const { c, failWith } = await loaded('Old');
    failWith({ serverMessage: 'A journal holds at most 20000 characters.' });
    c.edit();
    c.setDraft('Too long');
    await c.save();
    expect(c.getState()).toMatchObject({
      mode: 'edit',
      draft: 'Too long',
      content: 'Old',
      saveError: 'A journal holds at most 20000 characters.',
      saving: true,
    });
    // within the 150 ms the flag still protects the editor
    c.focusLeft();
    await vi.advanceTimersByTimeAsync(JOURNAL_SAVE_FLAG_RESET_MS);
    expect(c.getState().saving).toBe(false);
    expect(c.getState().mode).toBe('edit');
    await vi.advanceTimersByTimeAsync(JOURNAL_BLUR_CANCEL_MS);
    expect(c.getState().mode).toBe('view');
  });

  it('a retry of a failed save sends the same body (its idempotency key); a new text or a later save a new date', async () => {
    let now = NOW;
    const fake = fakeApi('Old');
    const c = new JournalController('dest-1', fake.api, { now: () => now });
    c.load();
    await vi.advanceTimersByTimeAsync(0);
    c.edit();
    c.setDraft('Fjords');
    fake.failWith(new Error('502'));
    await c.save();
    now = new Date(NOW.getTime() + 60_000);
    await vi.advanceTimersByTimeAsync(JOURNAL_SAVE_FLAG_RESET_MS);
    await c.save(); // the retry: same text, same date
    expect(fake.saves[1]).toEqual(fake.saves[0]);
    await vi.advanceTimersByTimeAsync(JOURNAL_SAVE_FLAG_RESET_MS);
    c.edit();
    c.setDraft('Fjords again');
    await c.save();
    expect(fake.saves[2]!.date).toBe(now.toISOString());
  });

  it("a failure without the server's message says 'Failed to save journal'", async () => {
    const { c, failWith } = await loaded('Old');
    failWith(new TypeError('network'));
    c.edit();
    await c.save();
    expect(c.getState()).toMatchObject({ mode: 'edit', saveError: 'Failed to save journal' });
  });

  it('a blur whose timer fires while saving is ignored even if the save then fails', async () => {
    const { c, holdSaves, release, failWith } = await loaded('Old');
    holdSaves();
    failWith(new Error('boom'));
    c.edit();
    c.setDraft('Draft');
    const saving = c.save();
    c.focusLeft();
    await vi.advanceTimersByTimeAsync(JOURNAL_BLUR_CANCEL_MS);
    release();
    await saving;
    expect(c.getState()).toMatchObject({ mode: 'edit', draft: 'Draft' });
  });

  it('a read-only (friend) journal never edits or saves', async () => {
    const { c, saves } = await loaded('Their story', true);
    c.edit();
    expect(c.getState().mode).toBe('view');
    await c.save();
    expect(saves).toEqual([]);
  });

  it('cancel (Escape) returns to viewing at once; stop() drops the timers', async () => {
    const { c } = await loaded('Old');
    c.edit();
    c.setDraft('x');
    c.cancel();
    expect(c.getState()).toMatchObject({ mode: 'view', draft: '' });
    c.edit();
    c.focusLeft();
    c.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(c.getState().mode).toBe('edit');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('notifies subscribers on every change', async () => {
    const { c } = await loaded('Old');
    const listener = vi.fn();
    const unsubscribe = c.subscribe(listener);
    c.edit();
    c.setDraft('y');
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    c.cancel();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
