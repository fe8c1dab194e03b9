import { CloseSmallIcon } from '../components/icons';
import '../styles/import.css';
import { UploadProgress } from '../trips/components/UploadProgress';
import { importNote, IMPORT_TEXTS, skippedSummary } from './importState';
import type { Importer } from './useImport';

/**
 * What the Import is doing, under the list's header: a progress bar with its percentage while
 * the file uploads, then "Imported N trips" (and what was skipped) or the service's message,
 * with "Try again" when the answer was lost or the service failed (the same file, the same
 * Idempotency-Key: the same import).
 * The text sits in a polite live region, so a screen reader hears each step.
 */
export function ImportStatus({ importer }: { importer: Importer }) {
  const { state } = importer;
  let content = null;
  if (state.status === 'uploading') {
    content = (
      <div className="import-status">
        <UploadProgress
          progress={state.progress}
          label={IMPORT_TEXTS.progressLabel}
          note={importNote(state)}
          showPercent
        />
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
        {state.status === 'failed' && state.retryable ? (
          <button type="button" className="btn btn-ghost import-retry" onClick={importer.retry}>
            {IMPORT_TEXTS.retry}
          </button>
        ) : null}
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
