import { describe, expect, it } from 'vitest';
import { TripExportFormats } from '@wayfarer/contracts';
import { tripExportLinks } from './export';

describe('the trip screen export links', () => {
  it('one per format, in order, to the API path of the trip, each named for what it is for', () => {
    const links = tripExportLinks('65a000000000000000000001');
    expect(links.map((l) => l.format)).toEqual([...TripExportFormats]);
    expect(links.map((l) => l.href)).toEqual([
      '/api/trips/65a000000000000000000001/export.gpx',
      '/api/trips/65a000000000000000000001/export.kml',
      '/api/trips/65a000000000000000000001/export.geojson',
      '/api/trips/65a000000000000000000001/export.ics',
    ]);
    expect(links.map((l) => l.label)).toEqual(['GPX', 'KML', 'GeoJSON', 'Calendar (.ics)']);
    for (const link of links)
      expect(link.name).toMatch(
        new RegExp(`^Download ${link.label.replace(/[().]/g, '\\$&')} \\(.+\\)$`),
      );
  });

  it('encodes the id (never a path of its own)', () => {
    expect(tripExportLinks('a/../b?c')[0]?.href).toBe('/api/trips/a%2F..%2Fb%3Fc/export.gpx');
  });
});
