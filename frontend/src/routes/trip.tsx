import { storyPreview } from '@wayfarer/contracts';
import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import {
  ArrowLeftIcon,
  CalendarIcon,
  EditIcon,
  LinkIcon,
  PinIcon,
  TrashIcon,
} from '../components/icons';
import { revealMapColumn } from '../map/reveal';
import { useMapFocus, useMapMarkers } from '../map/MapContext';
import { formatDateRange } from '../map/format';
import {
  deleteTrip,
  failureMessage,
  TRIP_TEXTS,
  watchTrip,
  type Destination,
  type Trip,
  type TripSummary,
} from '../trips/api';
import { summaryMarkers, tripMarkers } from '../trips/markers';
import { SharePanel } from '../sharing/components/SharePanel';
import { SHARE_TEXTS } from '../sharing/shareState';
import { PrivateMark } from '../trips/components/PrivateMark';
import { TripExport } from '../trips/components/TripExport';
import { TripThumb } from '../trips/TripThumb';
import type { TripsLocationState } from './trips';
import '../styles/auth.css';
import '../styles/sharing.css';
import '../styles/trips.css';

type Load =
  | { status: 'loading' }
  /** `complete` is false while only the list's summary is known (one photo per destination). */
  | { status: 'ready'; trip: Trip | TripSummary; complete: boolean }
  | { status: 'not-found' }
  | { status: 'failed'; message: string };

/**
 * What the add-trip page (the created trip) or the list (its summary) hands over so the trip
 * shows at once.
 */
interface TripLocationState {
  trip?: Trip;
  summary?: TripSummary;
}

function BackToTrips() {
  return (
    <Link to="/trips" className="back-link">
      <ArrowLeftIcon />
      Back to Trips
    </Link>
  );
}

function DestinationItem({
  destination,
  complete,
  chosen,
  onChoose,
}: {
  destination: Destination;
  /** False for a summary's destination: its photo count is not known yet. */
  complete: boolean;
  chosen: boolean;
  onChoose: () => void;
}) {
  const dates = formatDateRange(destination.startDate, destination.endDate);
  const story = destination.story.trim() ? storyPreview(destination.story) : '';
  const photos = complete ? destination.photos.length : 0;
  return (
    <button
      type="button"
      className={`destination-item${chosen ? ' is-chosen' : ''}`}
      aria-current={chosen ? 'true' : undefined}
      onClick={onChoose}
    >
      <TripThumb src={destination.photos[0]} />
      <span className="destination-text">
        <span className="destination-name">{destination.name}</span>
        {dates ? <span className="destination-dates">{dates}</span> : null}
        {story ? <span className="destination-story">{story}</span> : null}
        {photos > 0 ? (
          <span className="destination-meta">
            {photos} photo{photos === 1 ? '' : 's'}
          </span>
        ) : null}
      </span>
      <span className="destination-action" aria-hidden="true">
        <PinIcon />
      </span>
      <span className="visually-hidden">, show on the map</span>
    </button>
  );
}

/**
 * A trip (`/trip/:id`): its name, short date range and destinations
 * (story previews cut at 100 characters), which are the map's pins; choosing one zooms the map
 * to it. Edit opens the edit screen (`/trip/:id/edit`); Share its share link's dialog
 * (`sharing/`); Export downloads it as GPX, KML, GeoJSON or ICS. Delete asks 'Delete this trip?' first,
 * then goes back to the list.
 */
export function Component() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as TripLocationState | null;
  const [load, setLoad] = useState<Load>(() => {
    if (state?.trip?._id === id) return { status: 'ready', trip: state.trip, complete: true };
    if (state?.summary?._id === id) {
      return { status: 'ready', trip: state.summary, complete: false };
    }
    return { status: 'loading' };
  });
  const [attempt, setAttempt] = useState(0);
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [sharing, setSharing] = useState(false);
  const focusMarker = useMapFocus();

  useEffect(() => {
    const controller = new AbortController();
    setLoad((prev) =>
      prev.status === 'ready' && prev.trip._id === id ? prev : { status: 'loading' },
    );
    setChosenId(null);
    // followed while display variants are being made: the photos switch without a reload
    watchTrip(id, controller.signal, (trip) =>
      setLoad({ status: 'ready', trip, complete: true }),
    ).catch((error: unknown) => {
      if (controller.signal.aborted) return;
      if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
        setLoad({ status: 'not-found' });
      } else {
        console.error('Failed to fetch the trip', error);
        setLoad({
          status: 'failed',
          message: failureMessage(error, 'Failed to fetch the trip.'),
        });
      }
    });
    return () => controller.abort();
  }, [id, attempt]);

  const trip = load.status === 'ready' ? load.trip : null;
  const markers = useMemo(() => {
    if (!trip || load.status !== 'ready') return [];
    // a summary's pins name their trip: the info window loads the other photos
    return load.complete ? tripMarkers([trip]) : summaryMarkers([trip]);
  }, [trip, load]);
  useMapMarkers(markers);

  const choose = (destination: Destination) => {
    setChosenId(destination._id);
    focusMarker(destination._id);
    revealMapColumn();
  };

  const confirmDelete = async () => {
    if (!trip) return;
    setDeleting(true);
    setDeleteError(null);
    try {
      await deleteTrip(trip._id);
    } catch (error) {
      // Already gone (deleted in another tab): the list is where the user wanted to end up.
      if (!(error instanceof ApiError && error.status === 404)) {
        console.error('Failed to delete the trip', error);
        setDeleteError(failureMessage(error, TRIP_TEXTS.deleteFailed));
        setDeleting(false);
        return;
      }
    }
    const state: TripsLocationState = { deletedTrip: trip.name };
    navigate('/trips', { state });
  };

  if (load.status === 'loading') {
    return (
      <section className="page trip-page" aria-busy="true" aria-labelledby="page-title">
        <BackToTrips />
        <header className="page-header">
          <h1 id="page-title">
            <span className="visually-hidden">Loading the trip…</span>
            <span className="skeleton skeleton-title" aria-hidden="true" />
          </h1>
        </header>
        <div className="destination-list" aria-hidden="true">
          {[0, 1].map((i) => (
            <div key={i} className="destination-item destination-item--skeleton">
              <span className="trip-thumb skeleton" />
              <span className="destination-text">
                <span className="skeleton skeleton-line" style={{ width: '45%' }} />
                <span
                  className="skeleton skeleton-line skeleton-line--small"
                  style={{ width: '30%' }}
                />
              </span>
            </div>
          ))}
        </div>
      </section>
    );
  }

  if (load.status === 'not-found' || load.status === 'failed') {
    const notFound = load.status === 'not-found';
    return (
      <section className="page trip-page" aria-labelledby="page-title">
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
              <button
                type="button"
                className="btn btn-ghost"
                onClick={() => setAttempt((n) => n + 1)}
              >
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

  const { trip: shown, complete } = load;
  const dates = formatDateRange(shown.startDate, shown.endDate);
  const count = shown.destinations.length;

  return (
    <section className="page trip-page" aria-labelledby="page-title">
      <BackToTrips />
      <header className="page-header page-header--row">
        <div className="trip-heading">
          <div className="trip-card-title">
            <h1 id="page-title">{shown.name || TRIP_TEXTS.untitled}</h1>
            {shown.visibility === 'private' ? <PrivateMark /> : null}
          </div>
          {dates ? (
            <p className="trip-dates">
              <CalendarIcon />
              {dates}
            </p>
          ) : null}
        </div>
        <div className="trip-actions">
          <Link to={`/trip/${shown._id}/edit`} className="btn btn-ghost">
            <EditIcon />
            Edit
          </Link>
          <button
            type="button"
            className="btn btn-ghost"
            aria-haspopup="dialog"
            onClick={() => setSharing(true)}
          >
            <LinkIcon />
            {SHARE_TEXTS.open}
          </button>
          <button
            type="button"
            className="btn btn-danger-ghost"
            onClick={() => {
              setDeleteError(null);
              setConfirming(true);
            }}
          >
            <TrashIcon />
            Delete
          </button>
        </div>
      </header>

      <div className="section-head">
        <h2 className="section-title">Destinations</h2>
        {count > 0 ? <p className="section-hint">Choose one to zoom the map to it.</p> : null}
      </div>
      {count === 0 ? (
        <div className="state-card">
          <p className="state-text">This trip has no destinations.</p>
        </div>
      ) : (
        <ol className="destination-list">
          {shown.destinations.map((destination) => (
            <li key={destination._id}>
              <DestinationItem
                destination={destination}
                complete={complete}
                chosen={chosenId === destination._id}
                onChoose={() => choose(destination)}
              />
            </li>
          ))}
        </ol>
      )}

      <TripExport tripId={shown._id} />

      <SharePanel
        tripId={shown._id}
        tripName={shown.name || TRIP_TEXTS.untitled}
        open={sharing}
        onClose={() => setSharing(false)}
      />
      <ConfirmDialog
        open={confirming}
        title={TRIP_TEXTS.confirmDelete}
        description={
          <p>
            “{shown.name || TRIP_TEXTS.untitled}”, its {count} destination{count === 1 ? '' : 's'},
            photos and journals will be removed. This can&apos;t be undone.
          </p>
        }
        busy={deleting}
        error={deleteError}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      />
    </section>
  );
}
