import { JournalLimits } from '@wayfarer/contracts';
import {
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import { CheckIcon, EditIcon } from '../components/icons';
import { journalApi } from './api';
import { JOURNAL_TEXTS, JournalController, type JournalApi } from './journalState';
import '../styles/journal.css';

export interface JournalBoxProps {
  destinationId: string;
  /** A friend's journal: shown, never edited (no edit icon). */
  readOnly?: boolean;
  /** Overrides the server calls (tests). */
  api?: JournalApi;
}

/** Near the limit the editor shows how many characters are left. */
const COUNTER_FROM = Math.floor(JournalLimits.contentMax * 0.9);

/**
 * The journal of a destination in its info window: viewing shows the saved
 * text or 'No story shared yet.'; the edit icon opens the editor seeded with it; the save icon
 * saves and returns to viewing. Focus leaving the editor cancels it 300 ms later unless a save
 * is underway. Escape cancels at once (without closing the info window); Ctrl/Cmd+Enter saves.
 * Rules and timings live in `journalState.ts`. Give it a `key` per destination.
 */
export default function JournalBox({ destinationId, readOnly = false, api }: JournalBoxProps) {
  const [controller] = useState(
    () => new JournalController(destinationId, api ?? journalApi, { readOnly }),
  );
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  const editorId = useId();
  const errorId = `${editorId}-error`;
  const countId = `${editorId}-count`;
  const boxRef = useRef<HTMLElement>(null);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const editButtonRef = useRef<HTMLButtonElement>(null);
  const focusEditNext = useRef(false);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    controller.load();
    return () => controller.stop();
  }, [controller]);

  // Entering the editor puts the caret at the end of the seeded text.
  useEffect(() => {
    if (state.mode !== 'edit') return;
    const textarea = textareaRef.current;
    if (!textarea) return;
    textarea.focus({ preventScroll: true });
    const end = textarea.value.length;
    textarea.setSelectionRange(end, end);
  }, [state.mode]);

  // After an Escape or a save, focus goes back to the edit icon (it replaced the editor),
  // unless the user has moved on to something else meanwhile.
  const focusEditButton = () => {
    const active = document.activeElement;
    const lost = !active || active === document.body || boxRef.current?.contains(active);
    if (lost) editButtonRef.current?.focus({ preventScroll: true });
  };
  useEffect(() => {
    if (state.mode === 'view' && focusEditNext.current) {
      focusEditNext.current = false;
      focusEditButton();
    }
  }, [state.mode]);

  const lastSaved = useRef(state.savedCount);
  useEffect(() => {
    if (state.savedCount === lastSaved.current) return;
    lastSaved.current = state.savedCount;
    focusEditButton();
    setAnnouncement('Journal saved.');
    const timer = window.setTimeout(() => setAnnouncement(''), 4000);
    return () => window.clearTimeout(timer);
  }, [state.savedCount]);

  const editing = state.mode === 'edit' && !readOnly;

  const onEditorBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget as Node | null;
    if (next && event.currentTarget.contains(next)) return; // moving between textarea and icon
    controller.focusLeft();
  };

  const onEditorKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      // Handled here: the info window (which also closes on Escape) stays open.
      event.preventDefault();
      if (state.saving) return;
      focusEditNext.current = true;
      controller.cancel();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void controller.save();
    }
  };

  let body;
  if (state.load === 'loading') {
    body = (
      <p className="journal-status" role="status">
        <span className="journal-spinner" aria-hidden="true" />
        Loading journal…
      </p>
    );
  } else if (state.load === 'failed') {
    body = (
      <div className="journal-failed">
        <p className="journal-error" role="alert">
          {state.loadError ?? JOURNAL_TEXTS.loadFailed}
        </p>
        <button type="button" className="btn-link" onClick={() => controller.load()}>
          Try again
        </button>
      </div>
    );
  } else if (editing) {
    const left = JournalLimits.contentMax - state.draft.length;
    const describedBy = [
      state.saveError ? errorId : null,
      state.draft.length >= COUNTER_FROM ? countId : null,
    ]
      .filter(Boolean)
      .join(' ');
    body = (
      <div
        className={`journal-editor${state.saving ? ' is-saving' : ''}`}
        onBlur={onEditorBlur}
        onFocus={() => controller.focusReturned()}
      >
        <label className="visually-hidden" htmlFor={editorId}>
          Journal
        </label>
        <textarea
          ref={textareaRef}
          id={editorId}
          className="journal-textarea"
          value={state.draft}
          maxLength={JournalLimits.contentMax}
          readOnly={state.saving}
          aria-invalid={state.saveError ? true : undefined}
          aria-describedby={describedBy || undefined}
          placeholder="Write about this place…"
          onChange={(event) => controller.setDraft(event.target.value)}
          onKeyDown={onEditorKeyDown}
        />
        <div className="journal-editor-bar">
          {state.draft.length >= COUNTER_FROM ? (
            <span id={countId} className="journal-count">
              {left.toLocaleString()} characters left
            </span>
          ) : (
            <span className="journal-hint" aria-hidden="true">
              Esc to cancel · Ctrl+Enter to save
            </span>
          )}
          <button
            type="button"
            className="icon-button icon-button--accent"
            aria-label="Save journal"
            title="Save journal"
            aria-disabled={state.saving || undefined}
            aria-busy={state.saving || undefined}
            // Keep focus in the textarea while clicking: no blur, so nothing to cancel.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => void controller.save()}
          >
            {state.saving ? <span className="journal-spinner" aria-hidden="true" /> : <CheckIcon />}
          </button>
        </div>
        {state.saveError ? (
          <p id={errorId} className="journal-error" role="alert">
            {state.saveError}
          </p>
        ) : null}
      </div>
    );
  } else {
    body = (
      <div className="journal-view">
        {state.content ? (
          <p className="journal-text">{state.content}</p>
        ) : (
          <p className="journal-empty">{JOURNAL_TEXTS.empty}</p>
        )}
        {readOnly ? null : (
          <button
            ref={editButtonRef}
            type="button"
            className="icon-button"
            aria-label="Edit journal"
            title="Edit journal"
            onClick={() => controller.edit()}
          >
            <EditIcon />
          </button>
        )}
      </div>
    );
  }

  return (
    <section
      ref={boxRef}
      className="journal"
      aria-label={readOnly ? 'Journal (read-only)' : 'Journal'}
    >
      {body}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </section>
  );
}
