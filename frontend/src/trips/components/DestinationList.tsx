import { storyPreview, TripLimits } from '@wayfarer/contracts';
import { useId, useState, type Ref } from 'react';
import { CalendarIcon, CloseSmallIcon, EditIcon } from '../../components/icons';
import { formatDateRange } from '../../map/format';
import { TRIP_FORM_TEXTS, type DateRange, type DestinationEntry } from '../tripFormState';
import { DateRangeFields } from './DateRangeFields';
import { PhotoPicker } from './PhotoPicker';
import { PhotoThumbs } from './PhotoThumbs';
import { StoryField } from './StoryField';

/** What the edit screen does with a saved destination's photos. */
export interface SavedPhotoActions {
  /** Asks to remove a saved photo (the screen confirms first). */
  onRemoveSaved: (entry: DestinationEntry, url: string, index: number) => void;
  onChosen: (entry: DestinationEntry, files: File[]) => void;
  onDropped: (entry: DestinationEntry, file: File) => void;
  /** Bytes of every photo chosen in the form. */
  tripBytes: number;
}

function SavedPhotos({
  entry,
  onRemoveSaved,
}: {
  entry: DestinationEntry;
  onRemoveSaved: SavedPhotoActions['onRemoveSaved'];
}) {
  if (entry.saved.length === 0) {
    return <p className="field-hint">No saved photos.</p>;
  }
  return (
    <ul className="photo-thumbs" aria-label={`Saved photos of ${entry.name}`}>
      {entry.saved.map((url, i) => (
        <li key={url} className="photo-thumb">
          <img src={url} alt={`Photo ${i + 1} of ${entry.name}`} />
          <button
            type="button"
            className="photo-thumb-remove"
            aria-label={`Remove photo ${i + 1} of ${entry.name}`}
            title={`Remove photo ${i + 1}`}
            onClick={() => onRemoveSaved(entry, url, i)}
          >
            <CloseSmallIcon />
          </button>
        </li>
      ))}
    </ul>
  );
}

function DestinationItem({
  entry,
  urls,
  onRemove,
  onField,
  saved,
}: {
  entry: DestinationEntry;
  urls: ReadonlyMap<File, string>;
  onRemove: (key: string) => void;
  onField: (key: string, field: keyof DateRange | 'story', value: string) => void;
  saved: SavedPhotoActions | undefined;
}) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const dates = formatDateRange(entry.startDate, entry.endDate);
  const withPicker = entry.id !== undefined && saved !== undefined;
  return (
    <li className={`draft-item${withPicker ? ' draft-item--saved' : ''}`}>
      <div className="draft-head">
        <div className="draft-title">
          <span className="destination-name">{entry.name}</span>
          {dates ? (
            <span className="destination-dates">
              <CalendarIcon />
              {dates}
            </span>
          ) : null}
        </div>
        <div className="draft-tools">
          <button
            type="button"
            className="icon-button"
            // the destination's name only: 'story' in it would answer to the builder's Story label too
            aria-label={`Edit ${entry.name}`}
            title={open ? 'Done editing' : 'Edit dates and story'}
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            onClick={() => setOpen((value) => !value)}
          >
            <EditIcon />
          </button>
          <button
            type="button"
            className="icon-button icon-button--danger"
            aria-label={`Remove ${entry.name}`}
            title={`Remove ${entry.name}`}
            onClick={() => onRemove(entry.key)}
          >
            <CloseSmallIcon />
          </button>
        </div>
      </div>
      {open ? (
        <fieldset id={detailsId} className="draft-details">
          <legend className="visually-hidden">Dates and story of {entry.name}</legend>
          <DateRangeFields
            labels={['From', 'To']}
            range={entry}
            onChange={(field, value) => onField(entry.key, field, value)}
          />
          <StoryField
            rows={3}
            value={entry.story}
            onChange={(value) => onField(entry.key, 'story', value)}
          />
        </fieldset>
      ) : entry.story.trim() ? (
        <p className="destination-story">{storyPreview(entry.story)}</p>
      ) : null}
      {withPicker ? (
        <PhotoPicker
          label={`Photos of ${entry.name}`}
          buttonText="Add photos"
          photos={entry.photos}
          urls={urls}
          problems={entry.photoProblems}
          tripBytes={saved.tripBytes}
          onChosen={(files) => saved.onChosen(entry, files)}
          onRemove={(file) => saved.onDropped(entry, file)}
          hint={`${entry.saved.length + entry.photos.length} of ${TripLimits.photosPerDestinationMax} photos · JPEG, PNG, WebP or GIF`}
        >
          <SavedPhotos entry={entry} onRemoveSaved={saved.onRemoveSaved} />
        </PhotoPicker>
      ) : (
        <PhotoThumbs photos={entry.photos} urls={urls} />
      )}
    </li>
  );
}

/**
 * The Destinations card: each destination with its dates, story preview and photos; its dates
 * and story can be changed in place (the pencil), and it can be taken out (the focus then goes
 * to the heading). On the edit screen (`saved`) a saved destination lists its photos, each
 * removable, and takes new ones.
 */
export function DestinationList({
  destinations,
  urls,
  headingRef,
  onRemove,
  onField,
  saved,
  note,
}: {
  destinations: readonly DestinationEntry[];
  urls: ReadonlyMap<File, string>;
  headingRef: Ref<HTMLHeadingElement>;
  onRemove: (key: string) => void;
  onField: (key: string, field: keyof DateRange | 'story', value: string) => void;
  saved?: SavedPhotoActions | undefined;
  /** A line under the heading (what removing a saved destination does). */
  note?: string | undefined;
}) {
  return (
    <div className="form-card">
      <h2 className="form-card-title" ref={headingRef} tabIndex={-1}>
        Destinations{destinations.length > 0 ? ` (${destinations.length})` : ''}
      </h2>
      {note && destinations.length > 0 ? <p className="field-hint">{note}</p> : null}
      {destinations.length === 0 ? (
        <p className="state-text">{TRIP_FORM_TEXTS.noDestinations}</p>
      ) : (
        <ol className="draft-list">
          {destinations.map((entry) => (
            <DestinationItem
              key={entry.key}
              entry={entry}
              urls={urls}
              onRemove={onRemove}
              onField={onField}
              saved={saved}
            />
          ))}
        </ol>
      )}
    </div>
  );
}
