import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { CalendarIcon, PlusIcon } from '../components/icons';
import { Toast } from '../components/Toast';
import { useMapMarkers } from '../map/MapContext';
import { formatDateRange } from '../map/format';
import { ImportButton } from '../import/ImportButton';
import { ImportStatus } from '../import/ImportStatus';
import { useImport } from '../import/useImport';
import { fetchMyTrips, TRIP_TEXTS, type TripSummary } from '../trips/api';
import { summaryMarkers } from '../trips/markers';
import { PrivateMark } from '../trips/components/PrivateMark';
import { TripThumb } from '../trips/TripThumb';
import '../styles/trips.css';
import { EmptyCard, ErrorCard } from '../components/StateCard';

type Load =
  { status: 'loading' } | { status: 'failed' } | { status: 'ready'; trips: TripSummary[] };

/** What /trip/:id was left with when a trip was deleted (shown once here). */
export interface TripsLocationState {
  deletedTrip?: string;
}

function coverOf(trip: TripSummary): string | undefined {
  return trip.destinations.find((d) => d.photos.length > 0)?.photos[0];
}

function destinationSummary(trip: TripSummary): string {
  const count = trip.destinations.length;
  if (count === 0) return 'No destinations';
  const names = trip.destinations.map((d) => d.name).join(' · ');
  return `${count} destination${count === 1 ? '' : 's'} · ${names}`;
}

function TripsSkeleton() {
  return (
    <div className="trip-list-status" role="status" aria-live="polite">
      <span className="visually-hidden">Loading trips…</span>
      <ul className="trip-list" aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <li key={i} className="trip-card trip-card--skeleton">
            <span className="trip-thumb skeleton" />
            <span className="trip-card-text">
              <span className="skeleton skeleton-line" style={{ width: '55%' }} />
              <span
                className="skeleton skeleton-line skeleton-line--small"
                style={{ width: '35%' }}
              />
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The trips list (`/` and `/trips`): the user's trips with their short
 * date ranges, and every destination of them as a pin on the map. It reads trip summaries
 * (`GET /api/mytrips`: story previews, first photos); a pin's info window loads the trip's
 * other photos when opened (`useTripPhotos`). A trip opens /trip/{id}, which puts its own
 * destinations on the map.
 */
export function Component() {
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const location = useLocation();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<string | null>(() => {
    const deleted = (location.state as TripsLocationState | null)?.deletedTrip;
    return deleted !== undefined ? `Trip “${deleted || TRIP_TEXTS.untitled}” deleted.` : null;
  });
  const dismissNotice = useCallback(() => setNotice(null), []);

  // The notice is shown once: a reload or Back doesn't bring it again.
  useEffect(() => {
    if ((location.state as TripsLocationState | null)?.deletedTrip !== undefined) {
      navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
    }
  }, [location, navigate]);

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    fetchMyTrips(controller.signal).then(
      (trips) => setLoad({ status: 'ready', trips }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Failed to fetch trips', error);
        setLoad({ status: 'failed' });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  // after an import: the list again, without the skeleton in between
  const reload = useCallback(() => {
    fetchMyTrips().then(
      (trips) => setLoad({ status: 'ready', trips }),
      () => setAttempt((n) => n + 1),
    );
  }, []);
  const importer = useImport(reload);

  const trips = load.status === 'ready' ? load.trips : null;
  const markers = useMemo(() => (trips ? summaryMarkers(trips) : []), [trips]);
  useMapMarkers(markers);

  let body;
  if (load.status === 'loading') {
    body = <TripsSkeleton />;
  } else if (load.status === 'failed') {
    body = <ErrorCard message={TRIP_TEXTS.fetchFailed} onRetry={() => setAttempt((n) => n + 1)} />;
  } else if (load.trips.length === 0) {
    body = <EmptyCard icon={<PlusIcon />} text={TRIP_TEXTS.empty} />;
  } else {
    body = (
      <ul className="trip-list" aria-label="Your trips">
        {load.trips.map((trip) => {
          const dates = formatDateRange(trip.startDate, trip.endDate);
          return (
            <li key={trip._id}>
              <Link to={`/trip/${trip._id}`} state={{ summary: trip }} className="trip-card">
                <TripThumb src={coverOf(trip)} />
                <span className="trip-card-text">
                  <span className="trip-card-title">
                    <span className="trip-card-name">{trip.name || TRIP_TEXTS.untitled}</span>
                    {trip.visibility === 'private' ? <PrivateMark /> : null}
                  </span>
                  {dates ? (
                    <span className="trip-card-dates">
                      <CalendarIcon />
                      {dates}
                    </span>
                  ) : null}
                  <span className="trip-card-places">{destinationSummary(trip)}</span>
                </span>
                <span className="trip-card-chevron" aria-hidden="true">
                  ›
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className="page trips-page" aria-labelledby="page-title">
      <header className="page-header page-header--row">
        <div>
          <h1 id="page-title">Trips</h1>
          {trips && trips.length > 0 ? (
            <p className="page-subtitle">
              {trips.length} trip{trips.length === 1 ? '' : 's'} · {markers.length} destination
              {markers.length === 1 ? '' : 's'} on the map
            </p>
          ) : null}
        </div>
        <div className="page-actions">
          <ImportButton importer={importer} />
          <Link to="/addTrip" className="btn btn-primary">
            <PlusIcon />
            Add Trip
          </Link>
        </div>
      </header>
      <ImportStatus importer={importer} />
      {body}
      {notice ? (
        <div className="toast-region">
          <Toast message={notice} tone="success" timeout={5000} onDismiss={dismissNotice} />
        </div>
      ) : null}
    </section>
  );
}
