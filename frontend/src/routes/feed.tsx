import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { FeedIcon } from '../components/icons';
import { FeedCard } from '../feed/components/FeedCard';
import { FEED_TEXTS, feedMarkers } from '../feed/feedState';
import { useFeed } from '../feed/useFeed';
import { useMapMarkers } from '../map/MapContext';
import { revealMapColumn } from '../map/reveal';
import '../styles/trips.css';
import '../styles/friends.css';
import '../styles/feed.css';
import { EmptyCard, ErrorCard } from '../components/StateCard';

/**
 * The feed (`/feed`): friends' trips newest first, 'Load more' by the cursor. The map
 * shows every loaded trip's destinations; a card (or `?trip=`, where a notification of a
 * friend's new trip leads) shows that trip's alone.
 */
export function Component() {
  const { state, retry, loadMore } = useFeed();
  const [params, setParams] = useSearchParams();
  const selected = params.get('trip');
  const markers = useMemo(() => feedMarkers(state.items, selected), [state.items, selected]);
  useMapMarkers(markers);

  const show = (tripId: string) => {
    setParams(tripId === selected ? {} : { trip: tripId }, { replace: true });
    revealMapColumn();
  };

  let body;
  if (state.load === 'loading') {
    body = (
      <div className="state-card" role="status">
        <span className="btn-spinner" aria-hidden="true" />
        Loading the feed…
      </div>
    );
  } else if (state.load === 'failed') {
    body = <ErrorCard message={FEED_TEXTS.loadFailed} onRetry={retry} />;
  } else if (state.items.length === 0) {
    body = <EmptyCard icon={<FeedIcon />} text={FEED_TEXTS.empty} />;
  } else {
    body = (
      <>
        <ul className="feed-list" aria-label="Friends’ trips">
          {state.items.map((item) => (
            <li key={item.trip._id}>
              <FeedCard item={item} selected={item.trip._id === selected} onShow={show} />
            </li>
          ))}
        </ul>
        {state.moreError ? (
          <p className="field-error feed-error" role="alert">
            {FEED_TEXTS.moreFailed}
          </p>
        ) : null}
        {state.nextCursor !== null ? (
          <div className="feed-more">
            <button
              type="button"
              className="btn btn-ghost"
              disabled={state.loadingMore}
              onClick={loadMore}
            >
              {state.loadingMore ? 'Loading…' : FEED_TEXTS.loadMore}
            </button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <section className="page feed-page" aria-labelledby="page-title">
      <header className="page-header page-header--row">
        <div>
          <h1 id="page-title">{FEED_TEXTS.title}</h1>
          <p className="page-subtitle">{FEED_TEXTS.subtitle}</p>
        </div>
        {selected ? (
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => setParams({}, { replace: true })}
          >
            {FEED_TEXTS.showAll}
          </button>
        ) : null}
      </header>
      {body}
    </section>
  );
}
