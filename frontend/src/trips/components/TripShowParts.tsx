import { storyPreview } from '@wayfarer/contracts';
import { Link } from 'react-router-dom';
import { ArrowLeftIcon, PinIcon } from '../../components/icons';
import { formatDateRange } from '../../map/format';
import type { Destination } from '../api';
import { TripThumb } from '../TripThumb';

export function BackToTrips() {
  return (
    <Link to="/trips" className="back-link">
      <ArrowLeftIcon />
      Back to Trips
    </Link>
  );
}

/** A destination of the trip screen: choosing it zooms the map to its pin. */
export function DestinationItem({
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

/** The trip screen while the trip is read: its frame, two destinations' skeletons. */
export function TripSkeleton() {
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
