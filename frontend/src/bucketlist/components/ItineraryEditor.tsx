import { BucketListLimits } from '@wayfarer/contracts';
import {
  useCallback,
  useEffect,
  useId,
  useReducer,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { CloseSmallIcon, PlusIcon } from '../../components/icons';
import { fetchItinerary, saveItinerary } from '../api';
import {
  ITINERARY_SAVED_NOTE_MS,
  ITINERARY_TEXTS,
  initialItineraryState,
  isDirty,
  itineraryReducer,
  saveBody,
} from '../itineraryState';
import '../../styles/bucketlist.css';

export interface ItineraryEditorProps {
  bucketListId: string;
  /** The place (the window's title): names the controls. */
  place: string;
}

/**
 * The itinerary editor of a bucket-list place, inside its info window:
 * the saved list, an input whose trimmed text is added locally (then cleared), a remove
 * button per item, and a separate Save button; 'Saved Successfully!' for 2 s, the load and save
 * failures shown in the window. Rules live in `itineraryState.ts`. Give it a `key` per place.
 */
export default function ItineraryEditor({ bucketListId, place }: ItineraryEditorProps) {
  const [state, dispatch] = useReducer(itineraryReducer, initialItineraryState);
  const id = useId();
  const inputId = `${id}-input`;
  const draftErrorId = `${id}-draft-error`;

  const load = useCallback(
    (signal?: AbortSignal) => {
      dispatch({ type: 'load-start' });
      fetchItinerary(bucketListId, signal).then(
        (itinerary) => dispatch({ type: 'loaded', itinerary }),
        (error: unknown) => {
          if (signal?.aborted) return;
          console.error(ITINERARY_TEXTS.loadFailed, error);
          dispatch({ type: 'load-failed' });
        },
      );
    },
    [bucketListId],
  );

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  useEffect(() => {
    if (state.savedCount === 0) return;
    const timer = window.setTimeout(
      () => dispatch({ type: 'saved-note-end' }),
      ITINERARY_SAVED_NOTE_MS,
    );
    return () => window.clearTimeout(timer);
  }, [state.savedCount]);

  const save = async () => {
    if (state.saving || state.load !== 'ready') return;
    const checked = saveBody(bucketListId, state.items);
    if (!checked.ok) {
      dispatch({ type: 'save-failed', message: checked.message });
      return;
    }
    dispatch({ type: 'save-start' });
    try {
      await saveItinerary(checked.body);
      dispatch({ type: 'save-succeeded', itinerary: checked.body.itinerary });
    } catch (error) {
      console.error(ITINERARY_TEXTS.saveFailed, error);
      dispatch({ type: 'save-failed' });
    }
  };

  const addItem = (event: FormEvent) => {
    event.preventDefault();
    dispatch({ type: 'add' });
  };

  // Escape in the input clears it first, without closing the window.
  const onInputKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && state.draft !== '') {
      event.preventDefault();
      event.stopPropagation();
      dispatch({ type: 'draft', text: '' });
    }
  };

  if (state.load === 'loading') {
    return (
      <p className="itinerary-status" role="status">
        <span className="btn-spinner" aria-hidden="true" />
        Loading itinerary…
      </p>
    );
  }
  if (state.load === 'failed') {
    return (
      <div className="itinerary-failed">
        <p className="itinerary-error" role="alert">
          {ITINERARY_TEXTS.loadFailed}
        </p>
        <button type="button" className="btn-link" onClick={() => load()}>
          Try again
        </button>
      </div>
    );
  }

  const dirty = isDirty(state);
  return (
    <section className="itinerary" aria-label="Itinerary">
      <h3 className="itinerary-title">Itinerary</h3>
      {state.items.length === 0 ? (
        <p className="itinerary-empty">{ITINERARY_TEXTS.empty}</p>
      ) : (
        <ol className="itinerary-list" aria-label={`Itinerary for ${place}`}>
          {state.items.map((item, index) => (
            <li key={`${index}:${item}`} className="itinerary-item">
              <span className="itinerary-text">{item}</span>
              <button
                type="button"
                className="itinerary-remove"
                aria-label={`Remove “${item}”`}
                title="Remove"
                disabled={state.saving}
                onClick={() => dispatch({ type: 'remove', index })}
              >
                <CloseSmallIcon />
              </button>
            </li>
          ))}
        </ol>
      )}

      <form className="itinerary-add" onSubmit={addItem} noValidate>
        <label className="visually-hidden" htmlFor={inputId}>
          New itinerary item
        </label>
        <input
          id={inputId}
          className="input itinerary-input"
          type="text"
          value={state.draft}
          maxLength={BucketListLimits.itineraryItemMax}
          placeholder="Add something to do…"
          autoComplete="off"
          aria-invalid={state.draftError ? true : undefined}
          aria-describedby={state.draftError ? draftErrorId : undefined}
          onChange={(event) => dispatch({ type: 'draft', text: event.target.value })}
          onKeyDown={onInputKeyDown}
        />
        <button
          type="submit"
          className="icon-button"
          aria-label="Add item"
          title="Add item"
          disabled={state.saving}
        >
          <PlusIcon />
        </button>
      </form>
      {state.draftError ? (
        <p id={draftErrorId} className="itinerary-error" role="alert">
          {state.draftError}
        </p>
      ) : null}

      <div className="itinerary-actions">
        <button
          type="button"
          className="btn btn-primary itinerary-save"
          aria-disabled={state.saving || undefined}
          onClick={() => void save()}
        >
          {state.saving ? <span className="btn-spinner" aria-hidden="true" /> : null}
          {state.saving ? 'Saving…' : 'Save itinerary'}
        </button>
        <p className="itinerary-note" role="status">
          {state.savedNote ? (
            <span className="itinerary-saved">{ITINERARY_TEXTS.saved}</span>
          ) : dirty ? (
            <span className="itinerary-unsaved">Unsaved changes</span>
          ) : null}
        </p>
      </div>
      {state.saveError ? (
        <p className="itinerary-error" role="alert">
          {state.saveError}
        </p>
      ) : null}
    </section>
  );
}
