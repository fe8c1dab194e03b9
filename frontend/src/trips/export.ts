import { tripExportPath, TripExportFormats, type TripExportFormat } from '@wayfarer/contracts';

/** Texts of the trip screen's Export group. */
export const EXPORT_TEXTS = {
  title: 'Export',
  hint: 'Download this trip for maps, GPS apps or your calendar.',
} as const;

/** What each format is called on its button, and what it is for (its accessible name says both). */
const FORMAT_LABELS: Record<TripExportFormat, { label: string; use: string }> = {
  gpx: { label: 'GPX', use: 'GPS apps and devices' },
  kml: { label: 'KML', use: 'Google Earth' },
  geojson: { label: 'GeoJSON', use: 'GIS and web maps' },
  ics: { label: 'Calendar (.ics)', use: 'one all-day event per destination' },
};

export interface ExportLink {
  format: TripExportFormat;
  label: string;
  /** The link's accessible name: `Download GPX (GPS apps and devices)`. */
  name: string;
  href: string;
}

/** The trip's download links, one per format, in contracts' order. */
export function tripExportLinks(tripId: string): ExportLink[] {
  return TripExportFormats.map((format) => {
    const { label, use } = FORMAT_LABELS[format];
    return {
      format,
      label,
      name: `Download ${label} (${use})`,
      href: tripExportPath(tripId, format),
    };
  });
}
