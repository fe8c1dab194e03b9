import { useId, useState, type FormEvent } from 'react';
import { PlusIcon } from '../../components/icons';
import { PlaceAutocomplete } from '../../map/PlaceAutocomplete';
import type { PlaceChoice } from '../../map/places';

interface BucketSearchProps {
  /** The place picked and not added yet. */
  chosen: boolean;
  adding: boolean;
  error: string | null;
  /** Bumped after each add: the search box starts empty again. */
  resetKey: number;
  onChoose: (place: PlaceChoice | null) => void;
  onInvalid: () => void;
  onAdd: () => void;
}

/**
 * Search for a place and add it: the same place autocomplete as trips;
 * adding without a picked suggestion shows 'Please select a valid place.' under the box (an
 * announced message, not a window alert).
 */
export function BucketSearch({
  chosen,
  adding,
  error,
  resetKey,
  onChoose,
  onInvalid,
  onAdd,
}: BucketSearchProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const [text, setText] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAdd();
  };

  return (
    <form className="bucket-search" onSubmit={submit} noValidate aria-busy={adding || undefined}>
      <div className="bucket-search-row">
        <div className="bucket-search-field" key={resetKey}>
          <PlaceAutocomplete
            id={`${id}-place`}
            label="Search for a place"
            placeholder="A city you dream of visiting"
            clearOnSelect={false}
            errorId={error ? errorId : undefined}
            autoFocus={resetKey > 0}
            onSelect={(place) => {
              setText(place.label);
              onChoose(place);
            }}
            onInvalid={() => onInvalid()}
            onInputChange={(value) => {
              setText(value);
              if (chosen || error) onChoose(null);
            }}
          />
        </div>
        <button
          type="submit"
          className="btn btn-primary bucket-add"
          aria-disabled={adding || undefined}
          aria-describedby={error ? errorId : undefined}
        >
          {adding ? <span className="btn-spinner" aria-hidden="true" /> : <PlusIcon />}
          {adding ? 'Adding…' : 'Add'}
        </button>
      </div>
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : (
        <p className="bucket-search-hint">
          {chosen ? `Ready to add ${text}.` : 'Pick a suggestion, then Add.'}
        </p>
      )}
    </form>
  );
}
