import { useId } from 'react';
import { PinIcon } from '../../components/icons';
import type { CarouselLayout } from '../../map/carousel';
import { formatDateRange } from '../../map/format';
import { PhotoCarousel } from '../../map/PhotoCarousel';
import type { SharedDestination } from '../api';
import { SHARED_TEXTS } from '../sharedTrip';

/**
 * One destination of a shared trip: its name and dates, its photos in the app's carousel (none
 * without photos), and,
 * when the owner chose to show them, its story and journal. "Show on the map" zooms to its pin.
 */
export function SharedDestinationCard({
  destination,
  layout,
  onShow,
}: {
  destination: SharedDestination;
  layout: CarouselLayout;
  onShow: () => void;
}) {
  const titleId = useId();
  const dates = formatDateRange(destination.startDate, destination.endDate);
  const story = destination.story?.trim() ?? '';
  const journal = destination.journal?.trim() ?? '';
  return (
    <article
      className={`shared-destination${destination.photos.length > 0 ? '' : ' shared-destination--text'}`}
      aria-labelledby={titleId}
    >
      {destination.photos.length > 0 ? (
        <PhotoCarousel photos={destination.photos} title={destination.name} layout={layout} />
      ) : null}
      <div className="shared-destination-text">
        <h3 id={titleId} className="shared-destination-name">
          {destination.name}
        </h3>
        {dates ? <p className="shared-destination-dates">{dates}</p> : null}
        {story ? (
          <section className="shared-writing">
            <h4>{SHARED_TEXTS.story}</h4>
            <p>{story}</p>
          </section>
        ) : null}
        {journal ? (
          <section className="shared-writing">
            <h4>{SHARED_TEXTS.journal}</h4>
            <p>{journal}</p>
          </section>
        ) : null}
        <button
          type="button"
          className="btn btn-ghost shared-show"
          aria-label={`${SHARED_TEXTS.showOnMap}: ${destination.name}`}
          onClick={onShow}
        >
          <PinIcon />
          {SHARED_TEXTS.showOnMap}
        </button>
      </div>
    </article>
  );
}
