import { lazy, Suspense } from 'react';
import type { InfoWindowSlots } from '../map/InfoWindow';
import { isDraftMarkerId } from '../trips/markers';
import '../styles/journal.css';

// Its own chunk: it brings the shared contracts (and zod) only once an info window opens.
const JournalBox = lazy(() => import('./JournalBox'));

function JournalLoading() {
  return (
    <p className="journal-status journal-status--chunk" role="status">
      Loading journal…
    </p>
  );
}

/**
 * The info window's journal slot for the protected layout: the journal box of a saved
 * destination (read-only for a friend's), a note for a destination not saved yet.
 */
export const renderJournal: NonNullable<InfoWindowSlots['renderJournal']> = (
  marker,
  { readOnly },
) => {
  if (isDraftMarkerId(marker.id)) {
    return (
      <p className="journal-draft-note">Save the trip to write this destination&apos;s journal.</p>
    );
  }
  return (
    <Suspense fallback={<JournalLoading />}>
      <JournalBox key={marker.id} destinationId={marker.id} readOnly={readOnly} />
    </Suspense>
  );
};
