import type { StyleSpecification } from 'maplibre-gl';

/**
 * The keyless map's fixed dark style: deep blue water (the background), lighter slate land
 * (the countries), thin borders; place names are HTML markers (`labels.ts`), not layers. Two GeoJSON sources filled in at load time from the bundled world-atlas data; no
 * tiles, glyphs or sprites, so the style never touches the network.
 */
export const BASEMAP_COLORS = {
  ocean: '#071225',
  land: '#1c263d',
  coast: '#34466e',
  border: '#3a4870',
} as const;

const empty = { type: 'FeatureCollection' as const, features: [] };

export function darkStyle(): StyleSpecification {
  return {
    version: 8,
    name: 'Wayfarer dark',
    sources: {
      land: { type: 'geojson', data: empty, tolerance: 0.3 },
      borders: { type: 'geojson', data: empty, tolerance: 0.3 },
      coast: { type: 'geojson', data: empty, tolerance: 0.3 },
    },
    layers: [
      { id: 'ocean', type: 'background', paint: { 'background-color': BASEMAP_COLORS.ocean } },
      {
        id: 'land',
        type: 'fill',
        source: 'land',
        paint: { 'fill-color': BASEMAP_COLORS.land, 'fill-antialias': true },
      },
      {
        id: 'coast',
        type: 'line',
        source: 'coast',
        layout: { 'line-join': 'round' },
        paint: {
          'line-color': BASEMAP_COLORS.coast,
          'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.4, 6, 1],
        },
      },
      {
        id: 'borders',
        type: 'line',
        source: 'borders',
        layout: { 'line-join': 'round' },
        paint: {
          'line-color': BASEMAP_COLORS.border,
          'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.4, 6, 1.1],
        },
      },
    ],
  };
}
