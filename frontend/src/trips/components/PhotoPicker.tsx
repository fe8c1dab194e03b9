import { TripLimits } from '@wayfarer/contracts';
import { useId, type ChangeEvent, type ReactNode } from 'react';
import { CameraIcon } from '../../components/icons';
import { formatBytes, PHOTO_ACCEPT } from '../tripForm';
import { PhotoThumbs } from './PhotoThumbs';

const mb = (bytes: number) => Math.round(bytes / 1048576);

/**
 * A labelled photo input (the native input hidden, its label the button), the limits under it,
 * previews of the chosen photos with their remove buttons and why refused ones were left out.
 */
export function PhotoPicker({
  label = 'Photos',
  buttonText = 'Choose photos',
  photos,
  urls,
  problems,
  tripBytes,
  onChosen,
  onRemove,
  hint,
  children,
}: {
  label?: string;
  buttonText?: string;
  photos: readonly File[];
  urls: ReadonlyMap<File, string>;
  problems: readonly string[];
  /** Bytes of every photo chosen in the form (the trip's limit is on all of them). */
  tripBytes: number;
  onChosen: (files: File[]) => void;
  onRemove: (file: File) => void;
  /** The line beside the button (default: the types and limits). */
  hint?: ReactNode;
  /** Shown between the picker and the chosen photos (the saved photos, on the edit screen). */
  children?: ReactNode;
}) {
  const id = useId();
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = ''; // the same file can be chosen again after removing it
    if (chosen.length > 0) onChosen(chosen);
  };
  return (
    <div className={`field${problems.length > 0 ? ' has-error' : ''}`}>
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      {children}
      <div className="photo-picker">
        <input
          id={id}
          className="visually-hidden photo-input"
          type="file"
          accept={PHOTO_ACCEPT}
          multiple
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-hint`}
          onChange={onChange}
        />
        <label className="btn btn-ghost photo-pick-button" htmlFor={id}>
          <CameraIcon />
          {buttonText}
        </label>
        <span id={`${id}-hint`} className="field-hint">
          {hint ?? (
            <>
              JPEG, PNG, WebP or GIF · up to {mb(TripLimits.photoMaxBytes)} MB each ·{' '}
              {TripLimits.photosPerDestinationMax} per destination ·{' '}
              {mb(TripLimits.photosTotalMaxBytes)} MB per trip
              {tripBytes > 0 ? ` (${formatBytes(tripBytes)} chosen)` : ''}
            </>
          )}
        </span>
      </div>
      <PhotoThumbs photos={photos} urls={urls} onRemove={onRemove} />
      {problems.map((problem) => (
        <p key={problem} className="field-error" role="alert">
          {problem}
        </p>
      ))}
    </div>
  );
}
