import {
  useCallback,
  useEffect,
  useId,
  useReducer,
  useRef,
  useState,
  type ChangeEvent,
  type KeyboardEvent,
} from 'react';
import { gazetteerPlaceSource, type PlaceSource } from './placeSource';
import {
  enterIntent,
  initialPlaceBox,
  listAnnouncement,
  listShown,
  placeBoxReducer,
} from './placeAutocompleteState';
import {
  AUTOCOMPLETE_DEBOUNCE_MS,
  normalizeQuery,
  shouldSearch,
  type PlaceChoice,
  type PlaceSuggestion,
} from './places';
import { loadGoogleMaps } from './google/loader';
import { useGoogleLoadOptions, useMapProvider } from './useMapProvider';

export type PlaceInvalidReason = 'not-selected' | 'no-location';

export interface PlaceAutocompleteProps {
  /** Visible label of the input. */
  label: string;
  id?: string;
  name?: string;
  placeholder?: string;
  disabled?: boolean;
  autoFocus?: boolean;
  /** The user picked a suggestion that has a location. */
  onSelect: (place: PlaceChoice) => void;
  /**
   * The user pressed Enter on text without picking a suggestion ('not-selected'), or picked one
   * with no location ('no-location'). Screens show 'Please select a valid destination.' or
   * 'Please select a valid place.'.
   */
  onInvalid?: (reason: PlaceInvalidReason, text: string) => void;
  /** The text was edited (any earlier choice no longer stands). */
  onInputChange?: (text: string) => void;
  /** Marks the input invalid and points it at the message shown for it. */
  errorId?: string;
  /** Empty the input after a successful choice (e.g. the bucket list's add box). */
  clearOnSelect?: boolean;
  /** Overrides where suggestions come from (tests). */
  source?: PlaceSource;
}

/** The suggestion source of the running map provider, or null while it is being set up. */
function usePlaceSource(override?: PlaceSource): PlaceSource | null {
  const choice = useMapProvider();
  const googleOptions = useGoogleLoadOptions();
  const [googleSource, setGoogleSource] = useState<PlaceSource | null>(null);
  const apiKey = choice?.kind === 'google' ? choice.apiKey : null;
  useEffect(() => {
    if (override || !apiKey) return;
    let live = true;
    Promise.all([loadGoogleMaps(apiKey, googleOptions), import('./google/placesSource')])
      .then(([, mod]) => live && setGoogleSource(mod.createGooglePlaceSource()))
      .catch((err: unknown) => console.error('Error loading Google Maps', err));
    return () => {
      live = false;
    };
  }, [override, apiKey, googleOptions]);
  if (override) return override;
  if (!choice) return null;
  return choice.kind === 'google' ? googleSource : gazetteerPlaceSource;
}

/**
 * Place search as an accessible combobox (one component for both providers): type at least
 * two characters; suggestions come after a 200 ms pause (older requests are aborted); arrow
 * keys move through them, Enter picks, Escape closes the list.
 */
export function PlaceAutocomplete({
  label,
  id,
  name,
  placeholder = 'Search for a place',
  disabled,
  autoFocus,
  onSelect,
  onInvalid,
  onInputChange,
  errorId,
  clearOnSelect = false,
  source: sourceOverride,
}: PlaceAutocompleteProps) {
  const autoId = useId();
  const inputId = id ?? `place-${autoId}`;
  const listId = `${inputId}-listbox`;
  const source = usePlaceSource(sourceOverride);

  const [state, dispatch] = useReducer(placeBoxReducer, initialPlaceBox);
  const { text, suggestions, status, open, active } = state;

  const timer = useRef<number | undefined>(undefined);
  const inflight = useRef<AbortController | null>(null);

  const cancel = useCallback(() => {
    window.clearTimeout(timer.current);
    inflight.current?.abort();
    inflight.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);

  const search = useCallback(
    (query: string) => {
      if (!source) return;
      inflight.current?.abort();
      const controller = new AbortController();
      inflight.current = controller;
      dispatch({ type: 'search-start' });
      source.search(query, controller.signal).then(
        (results) => {
          if (!controller.signal.aborted) dispatch({ type: 'results', suggestions: results });
        },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          console.error('Place search failed', err);
          dispatch({ type: 'search-failed' });
        },
      );
    },
    [source],
  );

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const value = event.target.value;
    const query = normalizeQuery(value);
    const searching = shouldSearch(query);
    dispatch({ type: 'typed', text: value, searching });
    onInputChange?.(value);
    cancel();
    if (searching) {
      timer.current = window.setTimeout(() => search(query), AUTOCOMPLETE_DEBOUNCE_MS);
    }
  };

  const choose = async (suggestion: PlaceSuggestion) => {
    if (!source) return;
    cancel();
    dispatch({ type: 'choosing' });
    let place: PlaceChoice | null = null;
    try {
      place = await source.resolve(suggestion);
    } catch (err) {
      console.error('Place details failed', err);
    }
    if (!place) {
      dispatch({ type: 'no-location', label: suggestion.label });
      onInvalid?.('no-location', suggestion.label);
      return;
    }
    const shown = clearOnSelect ? '' : place.label;
    dispatch({ type: 'chosen', text: shown, chosen: clearOnSelect ? null : shown });
    onSelect(place);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (suggestions.length === 0) return;
        event.preventDefault();
        dispatch({ type: 'move', key: event.key });
        return;
      }
      case 'Enter': {
        const intent = enterIntent(state);
        if (intent.kind === 'chosen') return; // already a valid choice
        event.preventDefault();
        if (intent.kind === 'choose') void choose(intent.suggestion);
        else onInvalid?.('not-selected', intent.typed);
        return;
      }
      case 'Escape': {
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          dispatch({ type: 'close' });
        }
        return;
      }
      default:
    }
  };

  const showList = listShown(state);
  const activeId = active >= 0 ? `${listId}-${active}` : undefined;

  return (
    <div className="place-autocomplete">
      <label className="place-label" htmlFor={inputId}>
        {label}
      </label>
      <div className="place-field">
        <svg
          className="place-icon"
          viewBox="0 0 24 24"
          width="18"
          height="18"
          aria-hidden="true"
          focusable="false"
        >
          <circle cx="11" cy="11" r="6.5" />
          <path d="m16 16 4.5 4.5" />
        </svg>
        <input
          id={inputId}
          name={name}
          className="place-input"
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={showList}
          aria-controls={listId}
          aria-activedescendant={showList ? activeId : undefined}
          aria-busy={status === 'loading'}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={errorId}
          placeholder={placeholder}
          disabled={disabled}
          autoFocus={autoFocus}
          value={text}
          onChange={onChange}
          onKeyDown={onKeyDown}
          onFocus={() => dispatch({ type: 'focus' })}
          onBlur={() => dispatch({ type: 'close' })}
        />
        {status === 'loading' ? <span className="place-spinner" aria-hidden="true" /> : null}
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label={`${label} suggestions`}
        className="place-listbox"
        hidden={!showList}
      >
        {status === 'loading' && suggestions.length === 0 ? (
          <li className="place-note" role="presentation">
            Searching…
          </li>
        ) : null}
        {status === 'done' && suggestions.length === 0 ? (
          <li className="place-note" role="presentation">
            No places found
          </li>
        ) : null}
        {suggestions.map((s, i) => (
          <li
            key={s.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={`place-option${i === active ? ' is-active' : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => dispatch({ type: 'hover', index: i })}
            onClick={() => void choose(s)}
          >
            <span className="place-option-name">{s.name}</span>
            {s.detail ? <span className="place-option-detail">{s.detail}</span> : null}
          </li>
        ))}
      </ul>
      <p className="visually-hidden" aria-live="polite">
        {listAnnouncement(state)}
      </p>
    </div>
  );
}
