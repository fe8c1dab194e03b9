import { useEffect, useMemo, useReducer } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { CalendarIcon, EditIcon, LinkIcon, TrashIcon } from '../components/icons';
import { revealMapColumn } from '../map/reveal';
import { useMapFocus, useMapMarkers } from '../map/MapContext';
import { formatDateRange } from '../map/format';
import { deleteTrip, failureMessage, TRIP_TEXTS, watchTrip, type Destination } from '../trips/api';
import { summaryMarkers, tripMarkers } from '../trips/markers';
import { SharePanel } from '../sharing/components/SharePanel';
import { SHARE_TEXTS } from '../sharing/shareState';
import { PrivateMark } from '../trips/components/PrivateMark';
import { TripExport } from '../trips/components/TripExport';
import { TripLoadError, tripLoadFailure } from '../trips/components/TripLoadError';
import { BackToTrips, DestinationItem, TripSkeleton } from '../trips/components/TripShowParts';
import { initialTripView, tripViewReducer, type TripLocationState } from '../trips/tripViewState';
import type { TripsLocationState } from './trips';
import '../styles/auth.css';
import '../styles/sharing.css';
import '../styles/trips.css';

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
  const [state, dispatch] = useReducer(tripViewReducer, id, (first) =>
    initialTripView(first, location.state as TripLocationState | null),
  );
  const { load, attempt, chosenId } = state;
  const focusMarker = useMapFocus();

  useEffect(() => {
    const controller = new AbortController();
    dispatch({ type: 'load-start', id });
    // followed while display variants are being made: the photos switch without a reload
    watchTrip(id, controller.signal, (trip) => dispatch({ type: 'loaded', trip })).catch(
      (error: unknown) => {
        if (controller.signal.aborted) return;
        dispatch({ type: 'load-failed', ...tripLoadFailure(error, 'Failed to fetch the trip.') });
      },
    );
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
    dispatch({ type: 'choose', id: destination._id });
    focusMarker(destination._id);
    revealMapColumn();
  };

  const confirmDelete = async () => {
    if (!trip) return;
    dispatch({ type: 'delete-start' });
    try {
      await deleteTrip(trip._id);
    } catch (error) {
      // Already gone (deleted in another tab): the list is where the user wanted to end up.
      if (!(error instanceof ApiError && error.status === 404)) {
        console.error('Failed to delete the trip', error);
        dispatch({
          type: 'delete-failed',
          message: failureMessage(error, TRIP_TEXTS.deleteFailed),
        });
        return;
      }
    }
    const state: TripsLocationState = { deletedTrip: trip.name };
    navigate('/trips', { state });
  };

  if (load.status === 'loading') return <TripSkeleton />;
  if (load.status === 'not-found' || load.status === 'failed') {
    return (
      <TripLoadError
        load={load}
        pageClass="trip-page"
        onRetry={() => dispatch({ type: 'retry' })}
      />
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
            onClick={() => dispatch({ type: 'share', open: true })}
          >
            <LinkIcon />
            {SHARE_TEXTS.open}
          </button>
          <button
            type="button"
            className="btn btn-danger-ghost"
            onClick={() => dispatch({ type: 'delete-ask' })}
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
        open={state.sharing}
        onClose={() => dispatch({ type: 'share', open: false })}
      />
      <ConfirmDialog
        open={state.confirming}
        title={TRIP_TEXTS.confirmDelete}
        description={
          <p>
            “{shown.name || TRIP_TEXTS.untitled}”, its {count} destination{count === 1 ? '' : 's'},
            photos and journals will be removed. This can&apos;t be undone.
          </p>
        }
        busy={state.deleting}
        error={state.deleteError}
        onConfirm={() => void confirmDelete()}
        onCancel={() => dispatch({ type: 'delete-cancel' })}
      />
    </section>
  );
}
