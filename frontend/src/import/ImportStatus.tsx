import { CloseSmallIcon } from '../components/icons';
import '../styles/import.css';
import { importNote, importPercent, IMPORT_TEXTS, skippedSummary } from './importState';
import type { Importer } from './useImport';

/**
 * What the Import is doing, under the list's header: a progress bar with its percentage while
 * the file uploads, then "Imported N trips" (and what was skipped) or the service's message.
 * The text sits in a polite live region, so a screen reader hears each step.
 */
export function ImportStatus({ importer }: { importer: Importer }) {
  const { state } = importer;
  let content = null;
  if (state.status === 'uploading') {
    const percent = importPercent(state.progress);
    content = (
      <div className="import-status">
        <div className="import-progress-row">
          <div
            className="progress-bar"
            role="progressbar"
            aria-label={IMPORT_TEXTS.progressLabel}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent ?? undefined}
          >
            <span
              className={`progress-fill${percent === null ? ' is-indeterminate' : ''}`}
              style={percent === null ? undefined : { width: `${percent}%` }}
            />
          </div>
          <span className="import-percent" aria-hidden="true">
            {percent === null ? '' : `${percent}%`}
          </span>
        </div>
        <span className="upload-note">{importNote(state)}</span>
      </div>
    );
  } else if (state.status === 'done' || state.status === 'failed') {
    const failed = state.status === 'failed';
    const skipped = state.status === 'done' ? skippedSummary(state.result.skipped) : '';
    content = (
      <div className={`import-status import-status--${failed ? 'error' : 'done'}`}>
        <p className="import-message" role={failed ? 'alert' : undefined}>
          {failed ? state.message : state.result.message}
          {skipped ? <span className="import-skipped">{skipped}</span> : null}
        </p>
        <button
          type="button"
          className="toast-close"
          aria-label={IMPORT_TEXTS.dismiss}
          onClick={importer.dismiss}
        >
          <CloseSmallIcon />
        </button>
      </div>
    );
  }
  return (
    <div className="import-region" aria-live="polite">
      {content}
    </div>
  );
}
