import { TripLimits } from '@wayfarer/contracts';
import {
  useEffect,
  useMemo,
  useRef,
  type Dispatch,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Link } from 'react-router-dom';
import { Field } from '../../components/Field';
import { useMapMarkers } from '../../map/MapContext';
import type { OwnMarker } from '../../map/types';
import { TRIP_TEXTS } from '../api';
import { DRAFT_MARKER_PREFIX } from '../markers';
import {
  builderRange,
  chosenFiles,
  type TripFormAction,
  type TripFormState,
} from '../tripFormState';
import { useObjectUrls } from '../useObjectUrls';
import { DestinationBuilder } from './DestinationBuilder';
import { DestinationList, type SavedPhotoActions } from './DestinationList';
import { DateRangeFields } from './DateRangeFields';
import { UploadProgress } from './UploadProgress';
import { VisibilityField } from './VisibilityField';

/**
 * The trip form of the add and edit screens: the trip's name, dates and who can see it, the
 * destination builder,
 * the list of destinations (pins on the map as they are added: the map fits them all), and the
 * footer with the save error, the upload's progress, Cancel and Save. Save dispatches `submit`;
 * the screen sends (`useTripSend`). Everything is disabled while the trip is being sent.
 */
export function TripForm({
  state,
  dispatch,
  today,
  submitLabel,
  cancelTo,
  saved,
  alert,
  listNote,
  listFirst = false,
}: {
  state: TripFormState;
  dispatch: Dispatch<TripFormAction>;
  /** The default of empty dates. */
  today: string;
  submitLabel: string;
  cancelTo: string;
  /** The edit screen: what a saved destination's photos can do. */
  saved?: Omit<SavedPhotoActions, 'tripBytes'>;
  /** Shown instead of the save error (the edit screen's conflict, with its reload button). */
  alert?: ReactNode;
  /** A line under the Destinations heading. */
  listNote?: string;
  /** The destinations before the builder (the edit screen: what is saved comes first). */
  listFirst?: boolean;
}) {
  const uploading = state.sending !== null;
  const placeRef = useRef<HTMLDivElement>(null);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);

  const files = useMemo(() => chosenFiles(state), [state.destinations, state.builder.photos]);
  const urls = useObjectUrls(files);
  const tripBytes = useMemo(() => files.reduce((sum, file) => sum + file.size, 0), [files]);

  const markers = useMemo<OwnMarker[]>(
    () =>
      state.destinations.map((d) => ({
        kind: 'own',
        // a saved destination is itself (its journal opens); one added here is a draft
        id: d.id ?? `${DRAFT_MARKER_PREFIX}${d.key}`,
        name: d.name,
        lat: d.latitude,
        lng: d.longitude,
        startDate: d.startDate,
        endDate: d.endDate,
        photos: [
          ...d.saved,
          ...d.photos.map((p) => urls.get(p)).filter((u): u is string => Boolean(u)),
        ],
      })),
    [state.destinations, urls],
  );
  useMapMarkers(markers);

  useEffect(() => {
    if (!state.focus) return;
    if (state.focus.target === 'place') {
      placeRef.current?.querySelector<HTMLInputElement>('input')?.focus();
    } else {
      listHeadingRef.current?.focus();
    }
  }, [state.focus]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    dispatch({ type: 'submit', today });
  };

  // Enter in a one-line field never posts the whole trip: in the destination part it adds the
  // destination (unless the autocomplete used it to pick a suggestion), elsewhere nothing.
  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    if (event.key !== 'Enter' || event.defaultPrevented || !(target instanceof HTMLInputElement)) {
      return;
    }
    if (target.type === 'file') return;
    event.preventDefault();
    if (target.closest('.destination-builder')) dispatch({ type: 'add-destination' });
  };

  const builderCard = (
    <DestinationBuilder
      builder={state.builder}
      range={builderRange(state)}
      urls={urls}
      tripBytes={tripBytes}
      placeRef={placeRef}
      dispatch={dispatch}
    />
  );
  const list = (
    <DestinationList
      destinations={state.destinations}
      urls={urls}
      headingRef={listHeadingRef}
      onRemove={(key) => dispatch({ type: 'remove-destination', key })}
      onField={(key, field, value) => dispatch({ type: 'destination-field', key, field, value })}
      saved={saved ? { ...saved, tripBytes } : undefined}
      note={listNote}
    />
  );

  return (
    <form className="trip-form" onSubmit={onSubmit} onKeyDown={onKeyDown} noValidate>
      <fieldset className="form-fieldset" disabled={uploading}>
        <div className="form-card">
          <h2 className="form-card-title">Trip</h2>
          <Field
            label="Trip name"
            name="name"
            value={state.name}
            maxLength={TripLimits.nameMax}
            placeholder="e.g. Summer in Italy"
            autoComplete="off"
            onChange={(event) => dispatch({ type: 'name', value: event.target.value })}
          />
          <DateRangeFields
            labels={['Start date', 'End date']}
            range={state.range}
            named
            onChange={(field, value) => dispatch({ type: 'trip-date', field, value })}
          />
          <VisibilityField
            value={state.visibility}
            onChange={(value) => dispatch({ type: 'visibility', value })}
          />
        </div>

        {listFirst ? list : null}
        {builderCard}
        {listFirst ? null : list}
      </fieldset>
      <p className="visually-hidden" aria-live="polite">
        {state.announcement}
      </p>

      <div className="form-footer">
        {alert ??
          (state.saveError ? (
            <p className="form-alert" role="alert">
              {state.saveError}
            </p>
          ) : null)}
        {state.sending ? <UploadProgress progress={state.sending.progress} /> : null}
        <div className="form-actions">
          <Link
            to={cancelTo}
            className="btn btn-ghost"
            aria-disabled={uploading || undefined}
            tabIndex={uploading ? -1 : undefined}
            onClick={(event) => {
              if (uploading) event.preventDefault();
            }}
          >
            Cancel
          </Link>
          <button type="submit" className="btn btn-primary" aria-disabled={uploading || undefined}>
            {uploading ? (
              <>
                <span className="btn-spinner" aria-hidden="true" />
                {TRIP_TEXTS.uploading}
              </>
            ) : (
              submitLabel
            )}
          </button>
        </div>
      </div>
    </form>
  );
}
