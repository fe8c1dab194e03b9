import { dateOnly, tripTitle, type ExportableTrip } from './text';

/**
 * A GeoJSON FeatureCollection of the trip (RFC 7946): one `Point` Feature per destination, in
 * the trip's order, `id` the destination's id, `coordinates` `[longitude, latitude]`,
 * `properties` `{name, startDate, endDate, story}`. The trip itself is in two foreign members
 * (RFC 7946 section 6.1; a FeatureCollection may not have `properties`): `name` (the layer's
 * name to GDAL/QGIS) and `trip` `{id, name, startDate, endDate}`.
 */
export function tripGeoJson(trip: ExportableTrip): string {
  const document = {
    type: 'FeatureCollection',
    name: tripTitle(trip),
    trip: {
      id: trip._id,
      name: trip.name,
      startDate: dateOnly(trip.startDate),
      endDate: dateOnly(trip.endDate),
    },
    features: trip.destinations.map((d) => ({
      type: 'Feature',
      id: d._id,
      geometry: { type: 'Point', coordinates: [d.longitude, d.latitude] },
      properties: {
        name: d.name,
        startDate: dateOnly(d.startDate),
        endDate: dateOnly(d.endDate),
        story: d.story,
      },
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
