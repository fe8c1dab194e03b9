import { useMemo } from 'react';
import { BucketIcon } from '../components/icons';
import { BucketItems } from '../bucketlist/components/BucketItems';
import { BucketSearch } from '../bucketlist/components/BucketSearch';
import { BucketSkeleton } from '../bucketlist/components/BucketSkeleton';
import { VisitedHistory } from '../bucketlist/components/VisitedHistory';
import { BUCKET_TEXTS, bucketMarkers } from '../bucketlist/listState';
import { useBucketList } from '../bucketlist/useBucketList';
import { useMapFocus, useMapMarkers } from '../map/MapContext';
import { revealMapColumn } from '../map/reveal';
import '../styles/auth.css';
import '../styles/trips.css';
import '../styles/bucketlist.css';
import { EmptyCard, ErrorCard } from '../components/StateCard';

/**
 * The bucket list (`/bucketlist`): search for a place and add it,
 * the unvisited places with a checkbox each, the visited ones as a collapsed history, and every
 * listed place as a pin on the map (its info window holds the itinerary editor). Rules and
 * timings live in `src/bucketlist/listState.ts`.
 */
export function Component() {
  const { state, choose, invalid, add, tickOff, retry } = useBucketList();
  const markers = useMemo(() => bucketMarkers(state), [state]);
  useMapMarkers(markers);
  const focus = useMapFocus();
  const count = state.entries.filter((e) => !e.removing).length;

  let body;
  if (state.load === 'loading') {
    body = <BucketSkeleton />;
  } else if (state.load === 'failed') {
    body = <ErrorCard message={BUCKET_TEXTS.loadFailed} onRetry={retry} />;
  } else if (state.entries.length === 0) {
    body = <EmptyCard icon={<BucketIcon />} text={BUCKET_TEXTS.empty} />;
  } else {
    const show = (id: string) => {
      focus(id);
      revealMapColumn();
    };
    body = <BucketItems entries={state.entries} onTick={tickOff} onShow={show} />;
  }

  return (
    <section className="page bucket-page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Bucket List</h1>
        <p className="page-subtitle" aria-live="polite">
          {state.load === 'ready' && count > 0
            ? `${count} place${count === 1 ? '' : 's'} to visit · open a pin to plan an itinerary`
            : 'Places you dream of visiting, pinned on the map.'}
        </p>
      </header>
      <BucketSearch
        chosen={state.choice !== null}
        adding={state.adding}
        error={state.addError}
        resetKey={state.addedCount}
        onChoose={choose}
        onInvalid={invalid}
        onAdd={() => void add()}
      />
      {body}
      {state.load === 'ready' ? <VisitedHistory items={state.visited} /> : null}
    </section>
  );
}
