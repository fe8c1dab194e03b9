import { lazy, Suspense } from 'react';
import type { InfoWindowSlots } from '../map/InfoWindow';

// Its own chunk: it brings the shared contracts (and zod) only once a place's window opens.
const ItineraryEditor = lazy(() => import('./components/ItineraryEditor'));

/** The info window's itinerary slot for the protected layout (a bucket-list place's window). */
export const renderItinerary: NonNullable<InfoWindowSlots['renderItinerary']> = (marker) => (
  <Suspense
    fallback={
      <p className="itinerary-status" role="status">
        Loading itinerary…
      </p>
    }
  >
    <ItineraryEditor key={marker.id} bucketListId={marker.id} place={marker.place} />
  </Suspense>
);
