import { storyPreview } from '@wayfarer/contracts';
import type { Ref } from 'react';
import { CalendarIcon, CloseSmallIcon } from '../../components/icons';
import { formatDateRange } from '../../map/format';
import { TRIP_FORM_TEXTS, type DestinationEntry } from '../tripFormState';
import { PhotoPicker } from './PhotoPicker';
import { PhotoThumbs } from './PhotoThumbs';

/** What the edit screen does with a saved destination's photos. */
export interface SavedPhotoActions {
  /** Asks to remove a saved photo (the screen confirms first). */
  onRemoveSaved: (entry: DestinationEntry, url: string, index: number) => void;
  onChosen: (entry: DestinationEntry, files: File[]) => void;
  onDropped: (entry: DestinationEntry, file: File) => void;
  /** Bytes of every photo chosen in the form. */
  tripBytes: number;
  /** Saved photos being removed (their buttons wait). */
  removing?: ReadonlySet<string>;
}

function SavedPhotos({ entry, actions }: { entry: DestinationEntry; actions: SavedPhotoActions }) {
  if (entry.saved.length === 0) {
    return <p className="field-hint">No photos yet.</p>;
  }
  return (
    <ul className="photo-thumbs" aria-label={`Saved photos of ${entry.name}`}>
      {entry.saved.map((url, i) => {
        const busy = actions.removing?.has(url) ?? false;
        return (
          <li key={url} className={`photo-thumb${busy ? ' is-busy' : ''}`}>
            <img src={url} alt={`Photo ${i + 1} of ${entry.name}`} />
            <button
              type="button"
              className="photo-thumb-remove"
              aria-label={`Remove photo ${i + 1} of ${entry.name}`}
              title={`Remove photo ${i + 1}`}
              aria-disabled={busy || undefined}
              onClick={() => {
                if (!busy) actions.onRemoveSaved(entry, url, i);
              }}
            >
              <CloseSmallIcon />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The Destinations card: each destination with its dates, story preview and photos, and a
 * remove button for one added here (removing it moves the focus to the heading). On the edit
 * screen (`saved`) a saved destination lists its photos, each removable, and takes new ones.
 */
export function DestinationList({
  destinations,
  urls,
  headingRef,
  onRemove,
  saved,
}: {
  destinations: readonly DestinationEntry[];
  urls: ReadonlyMap<File, string>;
  headingRef: Ref<HTMLHeadingElement>;
  onRemove: (key: string) => void;
  saved?: SavedPhotoActions;
}) {
  return (
    <div className="form-card">
      <h2 className="form-card-title" ref={headingRef} tabIndex={-1}>
        Destinations{destinations.length > 0 ? ` (${destinations.length})` : ''}
      </h2>
      {destinations.length === 0 ? (
        <p className="state-text">{TRIP_FORM_TEXTS.noDestinations}</p>
      ) : (
        <ol className="draft-list">
          {destinations.map((d) => {
            const dates = formatDateRange(d.startDate, d.endDate);
            const isSaved = d.id !== undefined;
            return (
              <li key={d.key} className={`draft-item${isSaved ? ' draft-item--saved' : ''}`}>
                <div className="draft-head">
                  <div className="draft-title">
                    <span className="destination-name">{d.name}</span>
                    {dates ? (
                      <span className="destination-dates">
                        <CalendarIcon />
                        {dates}
                      </span>
                    ) : null}
                  </div>
                  {isSaved ? null : (
                    <button
                      type="button"
                      className="icon-button icon-button--danger"
                      aria-label={`Remove ${d.name}`}
                      title={`Remove ${d.name}`}
                      onClick={() => onRemove(d.key)}
                    >
                      <CloseSmallIcon />
                    </button>
                  )}
                </div>
                {d.story.trim() ? (
                  <p className="destination-story">{storyPreview(d.story)}</p>
                ) : null}
                {isSaved && saved ? (
                  <PhotoPicker
                    label={`Photos of ${d.name}`}
                    buttonText="Add photos"
                    photos={d.photos}
                    urls={urls}
                    problems={d.photoProblems}
                    tripBytes={saved.tripBytes}
                    onChosen={(files) => saved.onChosen(d, files)}
                    onRemove={(file) => saved.onDropped(d, file)}
                  >
                    <SavedPhotos entry={d} actions={saved} />
                  </PhotoPicker>
                ) : (
                  <PhotoThumbs photos={d.photos} urls={urls} />
                )}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
