import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { CalendarIcon } from '../../components/icons';
import { LandingBar } from '../../landing/LandingBar';
import { carouselLayout, LARGE_CAROUSEL_MIN_MAP } from '../../map/carousel';
import { formatDateRange } from '../../map/format';
import { useWindowWidth } from '../../map/useWindowWidth';
import { WorldMap } from '../../map/WorldMap';
import { sharedMarkers, sharedSummary, sharedTitle, SHARED_TEXTS } from '../sharedTrip';
import { useSharedTrip } from '../useSharedTrip';
import type { SharedTrip } from '../api';
import { SharedDestinationCard } from './SharedDestinationCard';

/** A visitor's top bar: no session is asked for (this page calls no session-only API). */
const VISITOR = { signedIn: false } as const;

function SharedTripBody({ trip }: { trip: SharedTrip }) {
  const width = useWindowWidth();
  const markers = useMemo(() => sharedMarkers(trip), [trip]);
  const [focus, setFocus] = useState<{ id: string; nonce: number } | null>(null);
  const mapRef = useRef<HTMLDivElement>(null);
  // the page's carousels: the app's sizes (350x400 on desktop, full width under 640 px)
  const layout = carouselLayout(width, LARGE_CAROUSEL_MIN_MAP);
  const dates = formatDateRange(trip.startDate, trip.endDate);

  const show = (id: string) => {
    setFocus((f) => ({ id, nonce: (f?.nonce ?? 0) + 1 }));
    mapRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  return (
    <>
      <header className="shared-header">
        <span className="eyebrow">{SHARED_TEXTS.eyebrow}</span>
        <h1 id="page-title">{trip.name || SHARED_TEXTS.untitled}</h1>
        <p className="shared-meta">
          {dates ? (
            <span className="shared-dates">
              <CalendarIcon />
              {dates}
            </span>
          ) : null}
          <span>{sharedSummary(trip)}</span>
        </p>
      </header>

      <div ref={mapRef} className="shared-map">
        <div className="map-canvas">
          <WorldMap
            markers={markers}
            focusedId={focus?.id ?? null}
            focusNonce={focus?.nonce ?? 0}
          />
        </div>
      </div>

      <section className="shared-destinations" aria-labelledby="destinations-title">
        <h2 id="destinations-title">{SHARED_TEXTS.destinations}</h2>
        {trip.destinations.length === 0 ? (
          <p className="shared-empty">{SHARED_TEXTS.noDestinations}</p>
        ) : (
          <ol className="shared-destination-list">
            {trip.destinations.map((destination) => (
              <li key={destination._id}>
                <SharedDestinationCard
                  destination={destination}
                  layout={layout}
                  onShow={() => show(destination._id)}
                />
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="landing-closing" aria-labelledby="closing-title">
        <h2 id="closing-title">{SHARED_TEXTS.closingTitle}</h2>
        <p>{SHARED_TEXTS.closingText}</p>
        <Link to="/register" className="btn btn-primary btn-lg">
          {SHARED_TEXTS.closingCta}
        </Link>
      </section>
    </>
  );
}

/**
 * The public page of a share link (`/s/{token}`): no login, the landing page's look.
 * The trip's name and dates, its map with a pin per destination (the app's map, keyless unless
 * a key is configured), and each destination with its dates, its photo carousel and, when the
 * owner chose so, its story and journal. A revoked, expired or unknown link says
 * `ShareMessages.linkGone` with a way to the landing page. Only `GET /api/shared/{token}` and
 * the photo URLs it names are asked for: it works in a browser with no session.
 */
export function SharedTripPage({ token }: { token: string }) {
  const [attempt, setAttempt] = useState(0);
  const load = useSharedTrip(token, attempt);

  useEffect(() => {
    document.title = sharedTitle(load.status === 'ready' ? load.trip : null);
  }, [load]);

  let body;
  if (load.status === 'loading') {
    body = (
      <div className="shared-loading" role="status" aria-live="polite">
        <span className="visually-hidden">{SHARED_TEXTS.loading}</span>
        <span className="skeleton skeleton-title" aria-hidden="true" />
        <span className="skeleton skeleton-line" style={{ width: '30%' }} aria-hidden="true" />
        <span className="skeleton shared-map-skeleton" aria-hidden="true" />
      </div>
    );
  } else if (load.status === 'gone' || load.status === 'failed') {
    const gone = load.status === 'gone';
    body = (
      <div className="shared-gone">
        <h1 id="page-title">{gone ? SHARED_TEXTS.gone : SHARED_TEXTS.failed}</h1>
        {gone ? <p>{SHARED_TEXTS.goneDetail}</p> : null}
        <div className="hero-cta">
          {gone ? null : (
            <button
              type="button"
              className="btn btn-ghost btn-lg"
              onClick={() => setAttempt((n) => n + 1)}
            >
              {SHARED_TEXTS.retry}
            </button>
          )}
          <Link to="/home" className="btn btn-primary btn-lg">
            {SHARED_TEXTS.toLanding}
          </Link>
        </div>
      </div>
    );
  } else {
    body = <SharedTripBody trip={load.trip} />;
  }

  return (
    <div className="landing shared-page">
      <LandingBar session={VISITOR} />
      <main
        className="landing-main shared-main"
        aria-labelledby="page-title"
        aria-busy={load.status === 'loading' || undefined}
      >
        {body}
      </main>
      <footer className="landing-footer">
        <p>© {new Date().getFullYear()} Wayfarer. Made for people who collect places.</p>
      </footer>
    </div>
  );
}
