import { useId, type Dispatch, type Ref } from 'react';
import { PlusIcon } from '../../components/icons';
import { PlaceAutocomplete } from '../../map/PlaceAutocomplete';
import type { Builder, DateRange, TripFormAction } from '../tripFormState';
import { DateRangeFields } from './DateRangeFields';
import { PhotoPicker } from './PhotoPicker';
import { StoryField } from './StoryField';

/**
 * "Add a destination": the place (picked from the suggestions), its dates, a story and photos,
 * then "Add destination" puts it in the list. Enter in one of its one-line fields adds it too
 * (the form's key handler: `.destination-builder`).
 */
export function DestinationBuilder({
  builder,
  range,
  urls,
  tripBytes,
  placeRef,
  dispatch,
}: {
  builder: Builder;
  /** Its dates: its own, or the trip's until it has its own. */
  range: DateRange;
  urls: ReadonlyMap<File, string>;
  tripBytes: number;
  /** The place input's wrapper (the form moves the focus to its input). */
  placeRef: Ref<HTMLDivElement>;
  dispatch: Dispatch<TripFormAction>;
}) {
  const ids = { place: useId(), placeError: useId() };
  const { placeError } = builder;
  return (
    <div className="form-card destination-builder">
      <h2 className="form-card-title">Add a destination</h2>
      <div
        ref={placeRef}
        className={`field${placeError ? ' has-error' : ''}`}
        // a new key empties the autocomplete after each added destination
        key={builder.generation}
      >
        <PlaceAutocomplete
          id={ids.place}
          label="Destination"
          placeholder="Search for a city"
          errorId={placeError ? ids.placeError : undefined}
          onSelect={(choice) => dispatch({ type: 'place-selected', choice })}
          onInvalid={() => dispatch({ type: 'place-invalid' })}
          onInputChange={(text) => dispatch({ type: 'place-typed', text })}
        />
        {placeError ? (
          <p id={ids.placeError} className="field-error" role="alert">
            {placeError}
          </p>
        ) : null}
      </div>
      <DateRangeFields
        labels={['From', 'To']}
        range={range}
        onChange={(field, value) => dispatch({ type: 'destination-date', field, value })}
      />
      <StoryField value={builder.story} onChange={(value) => dispatch({ type: 'story', value })} />
      <PhotoPicker
        photos={builder.photos}
        urls={urls}
        problems={builder.photoProblems}
        tripBytes={tripBytes}
        onChosen={(files) => dispatch({ type: 'photos-chosen', files })}
        onRemove={(file) => dispatch({ type: 'photo-dropped', file })}
      />
      <div className="builder-actions">
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => dispatch({ type: 'add-destination' })}
        >
          <PlusIcon />
          Add destination
        </button>
      </div>
    </div>
  );
}
