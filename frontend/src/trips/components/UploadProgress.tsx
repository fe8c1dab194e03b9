import { progressPercent, uploadNote, type UploadProgress as Progress } from '../tripFormState';

/** The upload's progress bar (indeterminate until the size is known) and what it is doing. */
export function UploadProgress({
  progress,
  label = 'Upload progress',
}: {
  progress: Progress | null;
  label?: string;
}) {
  const percent = progressPercent(progress);
  return (
    <div className="upload-progress">
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
      <span className="upload-note">{uploadNote(progress)}</span>
    </div>
  );
}
