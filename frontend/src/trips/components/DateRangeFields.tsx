import { Field } from '../../components/Field';
import type { DateRange } from '../tripFormState';

const FIELDS = ['startDate', 'endDate'] as const;

/** A pair of date inputs side by side (one above the other on a narrow screen). */
export function DateRangeFields({
  labels,
  range,
  named = false,
  onChange,
}: {
  labels: readonly [start: string, end: string];
  range: DateRange;
  /** Give the inputs the form's field names (`startDate`, `endDate`). */
  named?: boolean;
  onChange: (field: keyof DateRange, value: string) => void;
}) {
  return (
    <div className="form-row">
      {FIELDS.map((field, i) => (
        <Field
          key={field}
          label={labels[i]!}
          type="date"
          name={named ? field : undefined}
          value={range[field]}
          onChange={(event) => onChange(field, event.target.value)}
        />
      ))}
    </div>
  );
}
