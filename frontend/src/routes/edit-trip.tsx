import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ArrowLeftIcon } from '../components/icons';
import {
  failureMessage,
  fetchVersionedTrip,
  isConflict,
  patchTrip,
  photoIdOf,
  removePhoto,
  TRIP_TEXTS,
  uploadPhotos,
  type VersionedTrip,
} from '../trips/api';
import { TripForm } from '../trips/components/TripForm';
import { TripLoadError, tripLoadFailure } from '../trips/components/TripLoadError';
import { localDateString } from '../trips/tripForm';
import {
  afterPatch,
  combinedProgress,
  initialTripEdit,
  pendingUploads,
  TRIP_EDIT_TEXTS,
  tripEditReducer,
  tripPatch,
  type TripEditState,
} from '../trips/tripEditState';
import { useTripSend, type SendOptions } from '../trips/useTripSend';
import '../styles/auth.css';
import '../styles/trips.css';

const bytesOf = (files: readonly File[]) => files.reduce((sum, f) => sum + f.size, 0);
const saveFailure = (error: unknown) => failureMessage(error, TRIP_TEXTS.saveFailed);

function BackToTrip({ id }: { id: string }) {
  return (
    <Link to={`/trip/${id}`} className="back-link">
      <ArrowLeftIcon />
      Back to the trip
    </Link>
  );
}

/**
 * Editing a trip (`/trip/:id/edit`): the add-trip form prefilled from
 * `GET /api/trips/:id`. Save sends what changed (`PATCH` with `If-Match`), then the photos
 * added to saved destinations through the photo route with the upload's progress, and returns
 * to the trip. A saved photo is removed at once after a confirmation. A 412 (changed elsewhere)
 * says so and offers to load the trip again. Rules: `trips/tripEditState`.
 */
export function Component() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const today = useMemo(() => localDateString(), []);
  const [state, dispatch] = useReducer(tripEditReducer<File>, undefined, () =>
    initialTripEdit<File>(),
  );
  const [attempt, setAttempt] = useState(0);
  const latest = useRef<TripEditState>(state);
  latest.current = state;

  useEffect(() => {
    const controller = new AbortController();
    dispatch({ type: 'load-start' });
    fetchVersionedTrip(id, controller.signal)
      .then(({ trip, etag }) => dispatch({ type: 'loaded', trip, etag }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        dispatch({ type: 'load-failed', ...tripLoadFailure(error, TRIP_EDIT_TEXTS.loadFailed) });
      });
    return () => controller.abort();
  }, [id, attempt]);

  const send = useCallback(
    async ({ signal, onProgress }: SendOptions) => {
      const { trip, etag, form } = latest.current;
      if (!trip || !etag) return;
      let current: VersionedTrip = { trip, etag };
      let sending = form;
      try {
        const patch = tripPatch(trip, form);
        if (patch) {
          current = await patchTrip(id, patch, etag, signal);
          dispatch({ type: 'patched', ...current });
          sending = afterPatch(form, current.trip);
        }
        const uploads = pendingUploads(sending);
        const total = uploads.reduce((sum, u) => sum + bytesOf(u.files), 0);
        let done = 0;
        for (const upload of uploads) {
          const bytes = bytesOf(upload.files);
          current = await uploadPhotos(id, upload.destinationId, upload.files, current.etag, {
            signal,
            onProgress: (progress) =>
              onProgress(combinedProgress(total, done, { bytes, progress })),
          });
          done += bytes;
          dispatch({
            type: 'photos-added',
            ...current,
            sent: { key: upload.key, files: upload.files },
          });
        }
      } catch (error) {
        if (isConflict(error)) dispatch({ type: 'conflict' });
        throw error;
      }
      navigate(`/trip/${id}`, { state: { trip: current.trip } });
    },
    [id, navigate],
  );
  useTripSend(state.form.sending?.run ?? null, dispatch, send, saveFailure);

  const confirmRemoval = async () => {
    const { removal, trip, etag } = latest.current;
    if (!removal || !trip || !etag || removal.busy) return;
    const destinationId = latest.current.form.destinations.find((d) => d.key === removal.key)?.id;
    if (!destinationId) return;
    dispatch({ type: 'photo-remove-start' });
    try {
      const answer = await removePhoto(id, destinationId, photoIdOf(removal.url), etag);
      dispatch({ type: 'photo-removed', ...answer });
    } catch (error) {
      console.error('Failed to remove the photo', error);
      dispatch({
        type: 'photo-remove-failed',
        message: failureMessage(error, TRIP_EDIT_TEXTS.removeFailed),
        conflict: isConflict(error),
      });
    }
  };

  const reload = () => setAttempt((n) => n + 1);

  if (state.load.status === 'loading') {
    return (
      <section className="page add-trip-page" aria-busy="true" aria-labelledby="page-title">
        <BackToTrip id={id} />
        <header className="page-header">
          <h1 id="page-title">{TRIP_EDIT_TEXTS.title}</h1>
          <p className="page-subtitle">Loading the trip…</p>
        </header>
        <div className="trip-form" aria-hidden="true">
          {[0, 1].map((i) => (
            <div key={i} className="form-card">
              <span className="skeleton skeleton-line" style={{ width: '30%' }} />
              <span className="skeleton skeleton-line" style={{ width: '80%' }} />
              <span
                className="skeleton skeleton-line skeleton-line--small"
                style={{ width: '55%' }}
              />
            </div>
          ))}
        </div>
      </section>
    );
  }

  if (state.load.status === 'not-found' || state.load.status === 'failed') {
    return <TripLoadError load={state.load} pageClass="add-trip-page" onRetry={reload} />;
  }

  const { removal, form } = state;
  const removalName = removal
    ? (form.destinations.find((d) => d.key === removal.key)?.name ?? '')
    : '';
  const conflictAlert = state.conflict ? (
    <div className="form-alert conflict-alert" role="alert">
      <p>{TRIP_EDIT_TEXTS.conflict}</p>
      <button
        type="button"
        className="btn btn-ghost"
        aria-disabled={form.sending ? true : undefined}
        onClick={() => {
          if (!form.sending) reload();
        }}
      >
        {TRIP_EDIT_TEXTS.reload}
      </button>
      <p className="field-hint">{TRIP_EDIT_TEXTS.reloadNote}</p>
    </div>
  ) : undefined;

  return (
    <section className="page add-trip-page" aria-labelledby="page-title">
      <BackToTrip id={id} />
      <header className="page-header">
        <h1 id="page-title">{TRIP_EDIT_TEXTS.title}</h1>
        <p className="page-subtitle">{TRIP_EDIT_TEXTS.subtitle}</p>
      </header>
      <TripForm
        state={form}
        dispatch={dispatch}
        today={today}
        submitLabel={TRIP_EDIT_TEXTS.save}
        cancelTo={`/trip/${id}`}
        listNote={TRIP_EDIT_TEXTS.savedRemoval}
        listFirst
        alert={conflictAlert}
        saved={{
          onRemoveSaved: (entry, url, index) =>
            dispatch({ type: 'photo-remove-ask', key: entry.key, url, index }),
          onChosen: (entry, files) =>
            dispatch({ type: 'destination-photos-chosen', key: entry.key, files }),
          onDropped: (entry, file) =>
            dispatch({ type: 'destination-photo-dropped', key: entry.key, file }),
        }}
      />
      <ConfirmDialog
        open={removal !== null}
        title={TRIP_EDIT_TEXTS.removeTitle}
        description={
          removal ? (
            <>
              <img
                className="confirm-photo"
                src={removal.url}
                alt={`Photo ${removal.index + 1} of ${removalName}`}
              />
              <p>{TRIP_EDIT_TEXTS.removeDetail(removalName)}</p>
            </>
          ) : null
        }
        confirmLabel="Remove"
        cancelLabel="Keep"
        busy={removal?.busy ?? false}
        error={removal?.error ?? null}
        onConfirm={() => void confirmRemoval()}
        onCancel={() => dispatch({ type: 'photo-remove-cancel' })}
      />
    </section>
  );
}
