import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { AtlasMap } from '../atlas/components/AtlasMap';
import {
  ContinentList,
  CountryList,
  FriendPicker,
  MapLegend,
  StatTiles,
} from '../atlas/components/AtlasParts';
import {
  ATLAS_TEXTS,
  friendName,
  friendStats,
  formatShare,
  plural,
  sharedLine,
  statTiles,
  visitsByCode,
} from '../atlas/atlasState';
import { useAtlas, useWorldShapes } from '../atlas/useAtlas';
import { AtlasIcon, PlusIcon } from '../components/icons';
import '../styles/trips.css';
import '../styles/atlas.css';
import { EmptyCard, ErrorCard } from '../components/StateCard';

/**
 * Atlas (`/atlas`): the countries the user has been to on a world map, their figures
 * as tiles, the countries with flags and first visit, the continents; a friend picker overlays
 * the friend's countries and names the shared ones. Rules in `src/atlas/atlasState.ts`.
 */
export function Component() {
  const { state, pickFriend, retry, retryFriend } = useAtlas();
  const shapes = useWorldShapes();
  const stats = state.stats.status === 'ready' ? state.stats.data : null;
  const theirs = friendStats(state);
  const friend = friendName(state);
  const visits = useMemo(
    () => visitsByCode(stats?.countries ?? [], theirs?.countries ?? null),
    [stats, theirs],
  );

  const summary = stats
    ? `World map: ${plural(stats.countryCount, 'country', 'countries')} visited` +
      (theirs && friend
        ? `, ${friend}: ${plural(theirs.countryCount, 'country', 'countries')}`
        : '')
    : 'World map';

  let body;
  if (state.stats.status === 'loading') {
    body = (
      <div className="atlas-tiles atlas-tiles--loading" aria-busy="true" aria-label="Loading">
        {[0, 1, 2, 3, 4].map((i) => (
          <div key={i} className="atlas-tile atlas-tile--skeleton" />
        ))}
      </div>
    );
  } else if (state.stats.status === 'failed') {
    body = <ErrorCard message={state.stats.message} onRetry={retry} />;
  } else if (stats && stats.tripCount === 0) {
    body = (
      <EmptyCard icon={<AtlasIcon />} text={ATLAS_TEXTS.empty}>
        <div className="state-actions">
          <Link to="/addTrip" className="btn btn-primary">
            <PlusIcon />
            Add a trip
          </Link>
        </div>
      </EmptyCard>
    );
  } else if (stats) {
    body = <StatTiles tiles={statTiles(stats)} label="Your figures" />;
  }

  let overlay = null;
  if (state.friend?.status === 'loading') {
    overlay = (
      <p className="atlas-overlay-note" aria-busy="true">
        Loading {friend || 'their'} atlas…
      </p>
    );
  } else if (state.friend?.status === 'failed') {
    overlay = (
      <ErrorCard
        message={state.friend.message}
        onRetry={retryFriend}
        className="atlas-overlay-note"
      />
    );
  } else if (theirs) {
    overlay = (
      <div className="atlas-overlay-note" data-testid="atlas-shared">
        <p>
          <strong>{friend}</strong>: {plural(theirs.countryCount, 'country', 'countries')} (
          {formatShare(theirs.worldShare)} of the world)
        </p>
        <p className="atlas-shared">{sharedLine(theirs.sharedCountries)}</p>
      </div>
    );
  }

  const friends = state.friends.status === 'ready' ? state.friends.data : [];
  return (
    <section className="page atlas-page" aria-labelledby="page-title">
      <header className="page-header page-header--row">
        <div>
          <h1 id="page-title">Atlas</h1>
          <p className="page-subtitle">
            {stats && stats.countryCount > 0
              ? `${plural(stats.countryCount, 'country', 'countries')} · ${formatShare(stats.worldShare)} of the world`
              : 'Where you have been, in countries and figures.'}
          </p>
        </div>
        {state.friends.status === 'failed' ? (
          <p className="atlas-picker-note" role="status">
            {state.friends.message}
          </p>
        ) : friends.length > 0 || state.friends.status === 'loading' ? (
          <FriendPicker
            friends={friends}
            value={state.friendId}
            onChange={pickFriend}
            disabled={state.friends.status !== 'ready'}
          />
        ) : (
          <p className="atlas-picker-note">
            <Link to="/addFriends">{ATLAS_TEXTS.noFriends}</Link>
          </p>
        )}
      </header>

      {body}

      <div className="atlas-map-card">
        {shapes === 'failed' ? (
          <p className="atlas-map-note">The map could not be loaded.</p>
        ) : shapes === null ? (
          <div className="atlas-map atlas-map--loading" aria-hidden="true" />
        ) : (
          <AtlasMap shapes={shapes} visits={visits} summary={summary} />
        )}
        <MapLegend friend={theirs ? friend : ''} />
      </div>

      <div aria-live="polite">{overlay}</div>

      {stats && stats.countries.length > 0 ? (
        <div className="atlas-lists">
          <section aria-labelledby="atlas-countries-title">
            <h2 id="atlas-countries-title" className="section-title">
              Countries
            </h2>
            <CountryList
              countries={stats.countries}
              visits={visits}
              friend={theirs ? friend : ''}
            />
          </section>
          <section aria-labelledby="atlas-continents-title">
            <h2 id="atlas-continents-title" className="section-title">
              Continents
            </h2>
            <ContinentList continents={stats.continents} />
          </section>
        </div>
      ) : null}
    </section>
  );
}
