import { memo } from 'react';
import type { Visit } from '../atlasState';
import { WORLD_VIEWBOX, type CountryShape } from '../worldShapes';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const nameOf = (code: string) => {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
};

/**
 * The world with each country filled by who has been there (`data-visit`: mine, friend, both;
 * `data-visited` and `data-friend` say each side alone). Decorative for a screen reader beyond
 * its summary: the country list says the same in words.
 */
export const AtlasMap = memo(function AtlasMap({
  shapes,
  visits,
  summary,
}: {
  shapes: readonly CountryShape[];
  visits: ReadonlyMap<string, Visit>;
  summary: string;
}) {
  return (
    <svg className="atlas-map" viewBox={WORLD_VIEWBOX} role="img" aria-label={summary}>
      {shapes.map(({ code, d }) => {
        const visit = visits.get(code);
        return (
          <path
            key={code || 'none'}
            d={d}
            className={`atlas-country${visit ? ` atlas-country--${visit}` : ''}`}
            data-code={code || undefined}
            data-visit={visit ?? 'none'}
            data-visited={visit === 'mine' || visit === 'both'}
            data-friend={visit === 'friend' || visit === 'both'}
          >
            {code ? <title>{nameOf(code)}</title> : null}
          </path>
        );
      })}
    </svg>
  );
});
