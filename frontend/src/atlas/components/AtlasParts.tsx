import type { StatsContinentCount, StatsVisitedCountry } from '@wayfarer/contracts';
import { useMemo } from 'react';
import { formatShortDate } from '../../map/format';
import { flagEmoji, plural, type Tile, type Visit } from '../atlasState';
import { drawsFlags } from '../flags';

/** The figures, one tile each (`data-tile` names it for tests). */
export function StatTiles({ tiles, label }: { tiles: readonly Tile[]; label: string }) {
  return (
    <dl className="atlas-tiles" aria-label={label}>
      {tiles.map((tile) => (
        <div key={tile.label} className="atlas-tile" data-tile={tile.label}>
          <dt>{tile.label}</dt>
          <dd className="atlas-tile-value">{tile.value}</dd>
          {tile.detail ? <dd className="atlas-tile-detail">{tile.detail}</dd> : null}
        </div>
      ))}
    </dl>
  );
}

/** The colours of the map, named. */
export function MapLegend({ friend }: { friend: string }) {
  return (
    <ul className="atlas-legend" aria-label="Map colours">
      <li>
        <span className="atlas-swatch atlas-swatch--mine" aria-hidden="true" />
        You
      </li>
      {friend ? (
        <>
          <li>
            <span className="atlas-swatch atlas-swatch--friend" aria-hidden="true" />
            {friend}
          </li>
          <li>
            <span className="atlas-swatch atlas-swatch--both" aria-hidden="true" />
            Both
          </li>
        </>
      ) : null}
    </ul>
  );
}

/** The visited countries with their flags, first visit and destinations. */
export function CountryList({
  countries,
  visits,
  friend,
}: {
  countries: readonly StatsVisitedCountry[];
  visits: ReadonlyMap<string, Visit>;
  friend: string;
}) {
  const flags = useMemo(drawsFlags, []);
  return (
    <ul className="atlas-countries" aria-label="Countries visited">
      {countries.map((country) => (
        <li key={country.code} className="atlas-country-row" data-code={country.code}>
          {flags ? (
            <span className="atlas-flag" aria-hidden="true">
              {flagEmoji(country.code)}
            </span>
          ) : (
            <span className="atlas-flag atlas-flag--code" aria-hidden="true">
              {country.code}
            </span>
          )}
          <span className="atlas-country-name">
            {country.name}
            {friend && visits.get(country.code) === 'both' ? (
              <span className="atlas-both-badge">also {friend}</span>
            ) : null}
          </span>
          <span className="atlas-country-meta">
            First visit{' '}
            <time dateTime={country.firstVisited}>{formatShortDate(country.firstVisited)}</time>
            {' · '}
            {plural(country.destinations, 'destination', 'destinations')}
          </span>
        </li>
      ))}
    </ul>
  );
}

export function ContinentList({ continents }: { continents: readonly StatsContinentCount[] }) {
  return (
    <ul className="atlas-continents" aria-label="Continents">
      {continents.map((c) => (
        <li key={c.name}>
          <span>{c.name}</span>
          <span className="atlas-continent-count">
            {plural(c.countryCount, 'country', 'countries')}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** A select of the current friends; the empty choice means none. */
export function FriendPicker({
  friends,
  value,
  onChange,
  disabled,
}: {
  friends: readonly { id: string; name: string }[];
  value: string | null;
  onChange: (id: string) => void;
  disabled?: boolean;
}) {
  return (
    <label className="atlas-picker">
      <span>Compare with a friend</span>
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
        <option value="">No one</option>
        {friends.map((f) => (
          <option key={f.id} value={f.id}>
            {f.name}
          </option>
        ))}
      </select>
    </label>
  );
}
