import { Link } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { failureMessage, TRIP_TEXTS } from '../api';

/**
 * The page of a trip that could not be shown (the trip and edit screens): not found (deleted,
 * or never there) with the way back to the list; any other failure says why and offers to try
 * again.
 */
export function TripLoadError({
  load,
  pageClass,
  onRetry,
}: {
  load: { status: 'not-found' } | { status: 'failed'; message: string };
  /** The screen's own page class (`trip-page`, `add-trip-page`). */
  pageClass: string;
  onRetry: () => void;
}) {
  const notFound = load.status === 'not-found';
  return (
    <section className={`page ${pageClass}`} aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">{notFound ? TRIP_TEXTS.notFound : 'Something went wrong'}</h1>
      </header>
      <div className="state-card state-card--error">
        <p role="alert">
          {notFound
            ? 'This trip does not exist or is no longer available. It may have been deleted.'
            : load.message}
        </p>
        <div className="state-actions">
          {notFound ? null : (
            <button type="button" className="btn btn-ghost" onClick={onRetry}>
              Try again
            </button>
          )}
          <Link to="/trips" className="btn btn-primary">
            Back to Trips
          </Link>
        </div>
      </div>
    </section>
  );
}

/**
 * What a failed read of the trip means: not found (404, or an id that is not one: 400), else a
 * failure said with `fallback` (and logged).
 */
export function tripLoadFailure(
  error: unknown,
  fallback: string,
): { notFound: boolean; message: string } {
  const notFound = error instanceof ApiError && (error.status === 404 || error.status === 400);
  if (!notFound) console.error('Failed to fetch the trip', error);
  return { notFound, message: failureMessage(error, fallback) };
}
