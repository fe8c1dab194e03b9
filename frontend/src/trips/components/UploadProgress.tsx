import { progressPercent, uploadNote, type UploadProgress as Progress } from '../tripFormState';

/**
 * The upload's progress bar (indeterminate until the size is known) and what it is doing:
 * `note` (default: the trip form's), with the percentage beside the bar when `showPercent`
 * (the trips list's Import).
 */
export function UploadProgress({
  progress,
  label = 'Upload progress',
  note,
  showPercent = false,
}: {
  progress: Progress | null;
  label?: string;
  note?: string;
  showPercent?: boolean;
}) {
  const percent = progressPercent(progress);
  const bar = (
    <div
      className="progress-bar"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
    >
      <span
        className={`progress-fill${percent === null ? ' is-indeterminate' : ''}`}
        style={percent === null ? undefined : { width: `${percent}%` }}
      />
    </div>
  );
  return (
    <div className="upload-progress">
      {showPercent ? (
        <div className="upload-progress-row">
          {bar}
          <span className="upload-percent" aria-hidden="true">
            {percent === null ? '' : `${percent}%`}
          </span>
        </div>
      ) : (
        bar
      )}
      <span className="upload-note">{note ?? uploadNote(progress)}</span>
    </div>
  );
}
