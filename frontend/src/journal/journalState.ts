/**
 * The journal box's state machine, free of React so its rules and timings are
 * unit tested with fake timers:
 *
 * - viewing: the saved text, or 'No story shared yet.' when it is empty;
 * - the edit icon switches to editing, the draft seeded from the saved text;
 * - the save icon saves, then returns to viewing with the new text;
 * - focus leaving the editor cancels editing (and drops the draft) 300 ms later, but only if no
 *   save is underway at that moment;
 * - the save-in-progress flag is cleared 150 ms after the save finishes;
 * - a failed save keeps the editor open (with the message shown: not console-only);
 * - read-only journals (a friend's) never enter editing.
 */

/** After focus leaves the editor, editing is cancelled this much later. */
export const JOURNAL_BLUR_CANCEL_MS = 300;
/** The save-in-progress flag is cleared this long after a save finishes. */
export const JOURNAL_SAVE_FLAG_RESET_MS = 150;

export const JOURNAL_TEXTS = {
  empty: 'No story shared yet.',
  loadFailed: 'Failed to get journal.',
  saveFailed: 'Failed to save journal',
} as const;

export interface JournalState {
  /** Loading the saved text; editing is possible only once it is 'ready'. */
  load: 'loading' | 'ready' | 'failed';
  loadError: string | null;
  /** The saved text (what viewing shows). */
  content: string;
  mode: 'view' | 'edit';
  draft: string;
  /** The save-in-progress flag: set when a save starts, cleared 150 ms after it finishes. */
  saving: boolean;
  /** Why the last save failed (the editor stays open); null otherwise. */
  saveError: string | null;
  /** Bumped on each successful save (the box announces it and moves focus back). */
  savedCount: number;
}

export type JournalAction =
  | { type: 'load-start' }
  | { type: 'loaded'; content: string }
  | { type: 'load-failed'; message: string }
  | { type: 'edit' }
  | { type: 'draft'; draft: string }
  | { type: 'cancel' }
  | { type: 'blur-timeout' }
  | { type: 'save-start' }
  | { type: 'save-succeeded'; content: string }
  | { type: 'save-failed'; message: string }
  | { type: 'save-flag-reset' };

export const initialJournalState: JournalState = {
  load: 'loading',
  loadError: null,
  content: '',
  mode: 'view',
  draft: '',
  saving: false,
  saveError: null,
  savedCount: 0,
};

const toView = (state: JournalState): JournalState => ({
  ...state,
  mode: 'view',
  draft: '',
  saveError: null,
});

/** The transitions. Anything not allowed in the current state returns the same object. */
export function journalReducer(state: JournalState, action: JournalAction): JournalState {
  switch (action.type) {
    case 'load-start':
      return state.mode === 'edit' ? state : { ...state, load: 'loading', loadError: null };
    case 'loaded':
      return { ...state, load: 'ready', loadError: null, content: action.content };
    case 'load-failed':
      return { ...state, load: 'failed', loadError: action.message };
    case 'edit':
      if (state.load !== 'ready' || state.mode !== 'view' || state.saving) return state;
      return { ...state, mode: 'edit', draft: state.content, saveError: null };
    case 'draft':
      if (state.mode !== 'edit' || state.saving) return state;
      return { ...state, draft: action.draft };
    case 'cancel':
    case 'blur-timeout':
      // Only if no save is underway: a save that started wins over the blur.
      if (state.mode !== 'edit' || state.saving) return state;
      return toView(state);
    case 'save-start':
      if (state.mode !== 'edit' || state.saving) return state;
      return { ...state, saving: true, saveError: null };
    case 'save-succeeded':
      return {
        ...toView(state),
        content: action.content,
        savedCount: state.savedCount + 1,
      };
    case 'save-failed':
      // The editor stays open with the draft; the flag is cleared later like after a success.
      return { ...state, saveError: action.message };
    case 'save-flag-reset':
      return state.saving ? { ...state, saving: false } : state;
  }
}

/** What the box needs from the server (`GET /api/journal/:id`, `POST /api/journal`). */
export interface JournalApi {
  load(destinationId: string, signal: AbortSignal): Promise<string>;
  save(body: { destinationId: string; content: string; date: string }): Promise<void>;
}

/** A user-facing message out of a failure: the server's message, else the fallback. */
export type MessageOf = (error: unknown, fallback: string) => string;

const defaultMessageOf: MessageOf = (error, fallback) => {
  const server = (error as { serverMessage?: unknown } | null)?.serverMessage;
  return typeof server === 'string' && server.trim() ? server : fallback;
};

type Listener = () => void;

/**
 * One journal box's state plus its timers and server calls. `subscribe`/`getState` suit
 * React's `useSyncExternalStore`; `stop()` drops pending timers and requests (and `load()`
 * may start again afterwards, as StrictMode does).
 */
export class JournalController {
  private state: JournalState = initialJournalState;
  private readonly listeners = new Set<Listener>();
  private blurTimer: ReturnType<typeof setTimeout> | undefined;
  private flagTimer: ReturnType<typeof setTimeout> | undefined;
  private loading: AbortController | null = null;
  /**
   * The last save that failed: saving the same text again is its retry, sent with the same
   * date, so the same body (and so the same `Idempotency-Key`, `apiFetch`'s `idempotent`).
   */
  private failedSave: { content: string; date: string } | null = null;
  /** Bumped by `stop()`: a save finishing after it changes nothing. */
  private generation = 0;

  constructor(
    readonly destinationId: string,
    private readonly api: JournalApi,
    private readonly options: {
      readOnly?: boolean;
      now?: () => Date;
      messageOf?: MessageOf;
    } = {},
  ) {}

  readonly getState = (): JournalState => this.state;

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private dispatch(action: JournalAction): void {
    const next = journalReducer(this.state, action);
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  private messageOf(error: unknown, fallback: string): string {
    return (this.options.messageOf ?? defaultMessageOf)(error, fallback);
  }

  /** Fetches the saved text (again). */
  load(): void {
    this.loading?.abort();
    const controller = new AbortController();
    this.loading = controller;
    this.dispatch({ type: 'load-start' });
    this.api.load(this.destinationId, controller.signal).then(
      (content) => {
        if (controller.signal.aborted) return;
        this.loading = null;
        this.dispatch({ type: 'loaded', content });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        this.loading = null;
        this.dispatch({
          type: 'load-failed',
          message: this.messageOf(error, JOURNAL_TEXTS.loadFailed),
        });
      },
    );
  }

  /** The edit icon. Never for a read-only (friend's) journal. */
  edit(): void {
    if (this.options.readOnly) return;
    this.clearBlurTimer();
    this.dispatch({ type: 'edit' });
  }

  setDraft(draft: string): void {
    this.dispatch({ type: 'draft', draft });
  }

  /** Escape in the editor: back to viewing at once, the draft dropped (not while saving). */
  cancel(): void {
    this.clearBlurTimer();
    this.dispatch({ type: 'cancel' });
  }

  /** Focus left the editor: cancel 300 ms later unless a save is underway by then. */
  focusLeft(): void {
    if (this.state.mode !== 'edit') return;
    this.clearBlurTimer();
    this.blurTimer = setTimeout(() => {
      this.blurTimer = undefined;
      this.dispatch({ type: 'blur-timeout' });
    }, JOURNAL_BLUR_CANCEL_MS);
  }

  /** Focus came back into the editor before the delay ran out: keep editing. */
  focusReturned(): void {
    this.clearBlurTimer();
  }

  /**
   * The save icon: POSTs the draft with the current time (a retry of a failed save of the same
   * text: with that save's time). Resolves when the save is done.
   */
  async save(): Promise<void> {
    if (this.options.readOnly || this.state.mode !== 'edit' || this.state.saving) return;
    const generation = this.generation;
    const content = this.state.draft;
    this.dispatch({ type: 'save-start' });
    const date =
      this.failedSave?.content === content
        ? this.failedSave.date
        : (this.options.now?.() ?? new Date()).toISOString();
    try {
      await this.api.save({ destinationId: this.destinationId, content, date });
      this.failedSave = null;
      if (generation !== this.generation) return;
      this.dispatch({ type: 'save-succeeded', content });
    } catch (error) {
      this.failedSave = { content, date };
      if (generation !== this.generation) return;
      this.dispatch({
        type: 'save-failed',
        message: this.messageOf(error, JOURNAL_TEXTS.saveFailed),
      });
    }
    clearTimeout(this.flagTimer);
    this.flagTimer = setTimeout(() => {
      this.flagTimer = undefined;
      this.dispatch({ type: 'save-flag-reset' });
    }, JOURNAL_SAVE_FLAG_RESET_MS);
  }

  /** Drops timers and the pending load (unmount). */
  stop(): void {
    this.generation += 1;
    this.clearBlurTimer();
    clearTimeout(this.flagTimer);
    this.flagTimer = undefined;
    this.loading?.abort();
    this.loading = null;
    if (this.state.saving) this.state = { ...this.state, saving: false };
  }

  private clearBlurTimer(): void {
    clearTimeout(this.blurTimer);
    this.blurTimer = undefined;
  }
}
