import { TripLimits } from '@wayfarer/contracts';
import { useId } from 'react';
import { TRIP_TEXTS } from '../api';

/** A destination's story: a labelled textarea with the spec's placeholder and length limit. */
export function StoryField({
  value,
  onChange,
  rows = 4,
}: {
  value: string;
  onChange: (value: string) => void;
  rows?: number;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        Story
      </label>
      <textarea
        id={id}
        className="input textarea"
        rows={rows}
        value={value}
        maxLength={TripLimits.storyMax}
        placeholder={TRIP_TEXTS.storyPlaceholder}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
