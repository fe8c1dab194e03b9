import type { TripVisibility } from '@wayfarer/contracts';
import { useId } from 'react';
import { TRIP_TEXTS, VISIBILITY_CHOICES } from '../api';

/**
 * Who can see the trip: a group of two radio buttons under its legend, Friends (the
 * default) and Only me, each with a line saying what it means. Arrow keys move between them.
 */
export function VisibilityField({
  value,
  onChange,
}: {
  value: TripVisibility;
  onChange: (value: TripVisibility) => void;
}) {
  const id = useId();
  return (
    <fieldset className="choice-group">
      <legend className="field-label">{TRIP_TEXTS.visibility}</legend>
      <div className="choice-options">
        {VISIBILITY_CHOICES.map((choice) => (
          <label key={choice.value} className="choice">
            <input
              type="radio"
              name="visibility"
              value={choice.value}
              checked={value === choice.value}
              aria-describedby={`${id}-${choice.value}`}
              onChange={() => onChange(choice.value)}
            />
            <span className="choice-text">
              <span className="choice-label">{choice.label}</span>
              <span id={`${id}-${choice.value}`} className="choice-hint">
                {choice.hint}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
