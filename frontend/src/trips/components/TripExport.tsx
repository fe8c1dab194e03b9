import { DownloadIcon } from '../../components/icons';
import { EXPORT_TEXTS, tripExportLinks } from '../export';

/**
 * The trip screen's Export group: one plain download link per format to the API
 * (`GET /api/trips/{id}/export.<format>`, the session cookie goes with it; the server names the
 * file). Only the trip's owner reaches the trip screen, so only they see it.
 */
export function TripExport({ tripId }: { tripId: string }) {
  return (
    <section className="trip-export" aria-labelledby="trip-export-title">
      <div className="section-head">
        <h2 className="section-title" id="trip-export-title">
          {EXPORT_TEXTS.title}
        </h2>
        <p className="section-hint">{EXPORT_TEXTS.hint}</p>
      </div>
      <ul className="trip-export-links">
        {tripExportLinks(tripId).map((link) => (
          <li key={link.format}>
            <a
              className="btn btn-ghost"
              href={link.href}
              download
              aria-label={link.name}
              title={link.name}
              data-format={link.format}
            >
              <DownloadIcon />
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
