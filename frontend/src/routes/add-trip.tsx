import { storyPreview, TripLimits } from '@wayfarer/contracts';
import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Field } from '../components/Field';
import { CalendarIcon, CameraIcon, CloseSmallIcon, PlusIcon } from '../components/icons';
import { useMapMarkers } from '../map/MapContext';
import { formatDateRange } from '../map/format';
import { PlaceAutocomplete } from '../map/PlaceAutocomplete';
import type { PlaceChoice } from '../map/places';
import type { OwnMarker } from '../map/types';
import { failureMessage, TRIP_TEXTS, uploadTrip } from '../trips/api';
import { DRAFT_MARKER_PREFIX } from '../trips/markers';
import {
  adjustRange,
  buildTripFormData,
  checkPhotos,
  formatBytes,
  localDateString,
  PHOTO_ACCEPT,
  tripDateProblem,
  tripUploadProblem,
  type DestinationDraft,
} from '../trips/tripForm';
import '../styles/auth.css';
import '../styles/trips.css';

/** Object URLs of the chosen photos (previews and the map's draft pins), revoked when dropped. */
function useObjectUrls(files: readonly File[]): ReadonlyMap<File, string> {
  const [urls, setUrls] = useState<ReadonlyMap<File, string>>(() => new Map());
  useEffect(() => {
    const next = new Map(files.map((file) => [file, URL.createObjectURL(file)] as const));
    setUrls(next);
    return () => next.forEach((url) => URL.revokeObjectURL(url));
  }, [files]);
  return urls;
}

function PhotoThumbs({
  photos,
  urls,
  onRemove,
}: {
  photos: readonly File[];
  urls: ReadonlyMap<File, string>;
  onRemove?: (file: File) => void;
}) {
  if (photos.length === 0) return null;
  return (
    <ul className="photo-thumbs" aria-label="Chosen photos">
      {photos.map((file, i) => {
        const url = urls.get(file);
        return (
          <li key={`${file.name}-${file.size}-${file.lastModified}-${i}`} className="photo-thumb">
            {url ? <img src={url} alt={file.name} /> : <span className="photo-thumb-empty" />}
            {onRemove ? (
              <button
                type="button"
                className="photo-thumb-remove"
                aria-label={`Remove photo ${file.name}`}
                title={`Remove ${file.name} (${formatBytes(file.size)})`}
                onClick={() => onRemove(file)}
              >
                <CloseSmallIcon />
              </button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

let draftCounter = 0;
const nextDraftKey = () => `d${Date.now().toString(36)}${(draftCounter += 1)}`;

/**
 * The add-trip form (`/addTrip`, spec sections 2, 4, 5 and 7): a name, a date range (today by
 * default), destinations added one by one from the place autocomplete (with dates, a story and
 * photos), then Save posts the multipart form, shows 'Uploading...' and opens the new trip.
 * Added destinations show on the map as they are added (the map fits them all).
 */
export function Component() {
  const navigate = useNavigate();
  const today = useMemo(() => localDateString(), []);
  const ids = { story: useId(), photos: useId(), place: useId(), placeError: useId() };

  // trip
  const [name, setName] = useState('');
  const [range, setRange] = useState({ startDate: today, endDate: today });
  const [destinations, setDestinations] = useState<DestinationDraft[]>([]);

  // the destination being composed
  const [builderKey, setBuilderKey] = useState(0);
  const [place, setPlace] = useState<PlaceChoice | null>(null);
  const [placeText, setPlaceText] = useState('');
  const [placeError, setPlaceError] = useState<string | null>(null);
  const [ownRange, setOwnRange] = useState<{ startDate: string; endDate: string } | null>(null);
  const [story, setStory] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const [photoProblems, setPhotoProblems] = useState<string[]>([]);

  // saving
  const [uploading, setUploading] = useState(false);
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [saveError, setSaveError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  /** Set at once (state lags a render): a double click posts one trip. */
  const postingRef = useRef(false);
  useEffect(() => () => abortRef.current?.abort(), []);

  const placeInputRef = useRef<HTMLDivElement>(null);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);

  // A destination's dates follow the trip's until the user picks its own.
  const destRange = ownRange ?? range;

  const allFiles = useMemo(
    () => [...destinations.flatMap((d) => d.photos), ...photos],
    [destinations, photos],
  );
  const urls = useObjectUrls(allFiles);
  const tripPhotoCount = allFiles.length;
  const tripBytes = useMemo(() => allFiles.reduce((sum, file) => sum + file.size, 0), [allFiles]);

  const markers = useMemo<OwnMarker[]>(
    () =>
      destinations.map((d) => ({
        kind: 'own',
        id: `${DRAFT_MARKER_PREFIX}${d.key}`,
        name: d.name,
        lat: d.latitude,
        lng: d.longitude,
        startDate: d.startDate,
        endDate: d.endDate,
        photos: d.photos.map((p) => urls.get(p)).filter((u): u is string => Boolean(u)),
      })),
    [destinations, urls],
  );
  useMapMarkers(markers);

  const focusPlaceInput = () =>
    placeInputRef.current?.querySelector<HTMLInputElement>('input')?.focus();

  // After a destination is added the autocomplete (remounted empty) is ready for the next one.
  useEffect(() => {
    if (builderKey > 0) focusPlaceInput();
  }, [builderKey]);

  const resetBuilder = () => {
    setBuilderKey((k) => k + 1);
    setPlace(null);
    setPlaceText('');
    setPlaceError(null);
    setOwnRange(null);
    setStory('');
    setPhotos([]);
    setPhotoProblems([]);
  };

  /** Adds the composed destination; false (with the message shown) when it isn't valid. */
  const addDestination = (): DestinationDraft | false => {
    if (!place) {
      setPlaceError(TRIP_TEXTS.invalidDestination);
      focusPlaceInput();
      return false;
    }
    if (destinations.length >= TripLimits.destinationsMax) {
      setPlaceError(`A trip holds at most ${TripLimits.destinationsMax} destinations.`);
      return false;
    }
    const draft: DestinationDraft = {
      key: nextDraftKey(),
      name: place.label.slice(0, TripLimits.destinationNameMax),
      latitude: place.latitude,
      longitude: place.longitude,
      startDate: destRange.startDate,
      endDate: destRange.endDate,
      story,
      photos,
    };
    setDestinations((list) => [...list, draft]);
    setAnnouncement(`${draft.name} added.`);
    resetBuilder();
    return draft;
  };

  const removeDestination = (key: string) => {
    const removed = destinations.find((d) => d.key === key);
    setDestinations((list) => list.filter((d) => d.key !== key));
    if (removed) setAnnouncement(`${removed.name} removed.`);
    listHeadingRef.current?.focus();
  };

  const onPhotosChosen = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = ''; // the same file can be chosen again after removing it
    if (chosen.length === 0) return;
    const { accepted, problems } = checkPhotos(chosen, photos.length, tripPhotoCount, tripBytes);
    setPhotos((list) => [...list, ...accepted]);
    setPhotoProblems(problems);
  };

  const hasPendingWork = placeText.trim() !== '' || story.trim() !== '' || photos.length > 0;

  const save = async () => {
    if (postingRef.current) return;
    setSaveError(null);
    let all = destinations;
    // A destination picked but not added yet goes with the trip; a half-filled one without a
    // place is not silently dropped.
    if (place) {
      const added = addDestination();
      if (!added) return;
      all = [...destinations, added];
    } else if (hasPendingWork) {
      setPlaceError(TRIP_TEXTS.invalidDestination);
      focusPlaceInput();
      return;
    }
    // The dates as the trips service checks them, and the limits it and the gateway's body cap
    // come from, checked before sending a single byte: a refused upload of 100 MB would be a
    // long wait for a 400 or a 413.
    const problem =
      tripDateProblem({ ...range, destinations: all }, today) ??
      tripUploadProblem({ destinations: all });
    if (problem) {
      setSaveError(problem);
      return;
    }
    const body = buildTripFormData({
      name,
      startDate: range.startDate,
      endDate: range.endDate,
      destinations: all,
    });
    const controller = new AbortController();
    abortRef.current = controller;
    postingRef.current = true;
    setUploading(true);
    setProgress(null);
    try {
      const trip = await uploadTrip(body, {
        signal: controller.signal,
        onProgress: (p) => setProgress(p.total > 0 ? p : null),
      });
      navigate(`/trip/${trip._id}`, { state: { trip } });
    } catch (error) {
      if (controller.signal.aborted) return;
      console.error('Failed to save the trip', error);
      setSaveError(failureMessage(error, TRIP_TEXTS.saveFailed));
      postingRef.current = false;
      setUploading(false);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save();
  };

  // Enter in a one-line field never posts the whole trip: in the destination part it adds the
  // destination (unless the autocomplete used it to pick a suggestion), elsewhere nothing.
  const onFormKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    const target = event.target as HTMLElement;
    if (event.key !== 'Enter' || event.defaultPrevented || !(target instanceof HTMLInputElement)) {
      return;
    }
    if (target.type === 'file') return;
    event.preventDefault();
    if (target.closest('.destination-builder')) addDestination();
  };

  const percent = progress === null ? null : Math.round((progress.loaded / progress.total) * 100);
  let uploadNote = 'Starting the upload…';
  if (progress && percent !== null) {
    uploadNote =
      percent >= 100
        ? 'Processing photos…'
        : `${formatBytes(progress.loaded)} of ${formatBytes(progress.total)} sent`;
  }

  return (
    <section className="page add-trip-page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Add Trip</h1>
        <p className="page-subtitle">Name your trip, then add its destinations one by one.</p>
      </header>

      <form className="trip-form" onSubmit={onSubmit} onKeyDown={onFormKeyDown} noValidate>
        <fieldset className="form-fieldset" disabled={uploading}>
          <div className="form-card">
            <h2 className="form-card-title">Trip</h2>
            <Field
              label="Trip name"
              name="name"
              value={name}
              maxLength={TripLimits.nameMax}
              placeholder="e.g. Summer in Italy"
              autoComplete="off"
              onChange={(event) => setName(event.target.value)}
            />
            <div className="form-row">
              <Field
                label="Start date"
                type="date"
                name="startDate"
                value={range.startDate}
                onChange={(event) =>
                  setRange((r) => adjustRange(r, 'startDate', event.target.value))
                }
              />
              <Field
                label="End date"
                type="date"
                name="endDate"
                value={range.endDate}
                onChange={(event) => setRange((r) => adjustRange(r, 'endDate', event.target.value))}
              />
            </div>
          </div>

          <div className="form-card destination-builder">
            <h2 className="form-card-title">Add a destination</h2>
            <div
              ref={placeInputRef}
              className={`field${placeError ? ' has-error' : ''}`}
              // a new key empties the autocomplete after each added destination
              key={builderKey}
            >
              <PlaceAutocomplete
                id={ids.place}
                label="Destination"
                placeholder="Search for a city"
                errorId={placeError ? ids.placeError : undefined}
                onSelect={(choice) => {
                  setPlace(choice);
                  setPlaceText(choice.label);
                  setPlaceError(null);
                }}
                onInvalid={() => {
                  setPlace(null);
                  setPlaceError(TRIP_TEXTS.invalidDestination);
                }}
                onInputChange={(text) => {
                  setPlace(null);
                  setPlaceText(text);
                  if (placeError) setPlaceError(null);
                }}
              />
              {placeError ? (
                <p id={ids.placeError} className="field-error" role="alert">
                  {placeError}
                </p>
              ) : null}
            </div>
            <div className="form-row">
              <Field
                label="From"
                type="date"
                value={destRange.startDate}
                onChange={(event) =>
                  setOwnRange(adjustRange(destRange, 'startDate', event.target.value))
                }
              />
              <Field
                label="To"
                type="date"
                value={destRange.endDate}
                onChange={(event) =>
                  setOwnRange(adjustRange(destRange, 'endDate', event.target.value))
                }
              />
            </div>
            <div className="field">
              <label className="field-label" htmlFor={ids.story}>
                Story
              </label>
              <textarea
                id={ids.story}
                className="input textarea"
                rows={4}
                value={story}
                maxLength={TripLimits.storyMax}
                placeholder={TRIP_TEXTS.storyPlaceholder}
                onChange={(event) => setStory(event.target.value)}
              />
            </div>
            <div className={`field${photoProblems.length > 0 ? ' has-error' : ''}`}>
              <span className="field-label" id={`${ids.photos}-label`}>
                Photos
              </span>
              <div className="photo-picker">
                <input
                  id={ids.photos}
                  className="visually-hidden photo-input"
                  type="file"
                  accept={PHOTO_ACCEPT}
                  multiple
                  aria-labelledby={`${ids.photos}-label`}
                  aria-describedby={`${ids.photos}-hint`}
                  onChange={onPhotosChosen}
                />
                <label className="btn btn-ghost photo-pick-button" htmlFor={ids.photos}>
                  <CameraIcon />
                  Choose photos
                </label>
                <span id={`${ids.photos}-hint`} className="field-hint">
                  JPEG, PNG, WebP or GIF · up to {Math.round(TripLimits.photoMaxBytes / 1048576)} MB
                  each · {TripLimits.photosPerDestinationMax} per destination ·{' '}
                  {Math.round(TripLimits.photosTotalMaxBytes / 1048576)} MB per trip
                  {tripBytes > 0 ? ` (${formatBytes(tripBytes)} chosen)` : ''}
                </span>
              </div>
              <PhotoThumbs
                photos={photos}
                urls={urls}
                onRemove={(file) => setPhotos((list) => list.filter((p) => p !== file))}
              />
              {photoProblems.map((problem) => (
                <p key={problem} className="field-error" role="alert">
                  {problem}
                </p>
              ))}
            </div>
            <div className="builder-actions">
              <button type="button" className="btn btn-ghost" onClick={() => addDestination()}>
                <PlusIcon />
                Add destination
              </button>
            </div>
          </div>

          <div className="form-card">
            <h2 className="form-card-title" ref={listHeadingRef} tabIndex={-1}>
              Destinations{destinations.length > 0 ? ` (${destinations.length})` : ''}
            </h2>
            {destinations.length === 0 ? (
              <p className="state-text">
                No destinations yet. Pick a place above and click “Add destination”.
              </p>
            ) : (
              <ol className="draft-list">
                {destinations.map((d) => {
                  const dates = formatDateRange(d.startDate, d.endDate);
                  return (
                    <li key={d.key} className="draft-item">
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
                        <button
                          type="button"
                          className="icon-button icon-button--danger"
                          aria-label={`Remove ${d.name}`}
                          title={`Remove ${d.name}`}
                          onClick={() => removeDestination(d.key)}
                        >
                          <CloseSmallIcon />
                        </button>
                      </div>
                      {d.story.trim() ? (
                        <p className="destination-story">{storyPreview(d.story)}</p>
                      ) : null}
                      <PhotoThumbs photos={d.photos} urls={urls} />
                    </li>
                  );
                })}
              </ol>
            )}
          </div>
        </fieldset>
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>

        <div className="form-footer">
          {saveError ? (
            <p className="form-alert" role="alert">
              {saveError}
            </p>
          ) : null}
          {uploading ? (
            <div className="upload-progress">
              <div
                className="progress-bar"
                role="progressbar"
                aria-label="Upload progress"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent ?? undefined}
              >
                <span
                  className={`progress-fill${percent === null ? ' is-indeterminate' : ''}`}
                  style={percent === null ? undefined : { width: `${percent}%` }}
                />
              </div>
              <span className="upload-note">{uploadNote}</span>
            </div>
          ) : null}
          <div className="form-actions">
            <Link
              to="/trips"
              className="btn btn-ghost"
              aria-disabled={uploading || undefined}
              tabIndex={uploading ? -1 : undefined}
              onClick={(event) => {
                if (uploading) event.preventDefault();
              }}
            >
              Cancel
            </Link>
            <button
              type="submit"
              className="btn btn-primary"
              aria-disabled={uploading || undefined}
            >
              {uploading ? (
                <>
                  <span className="btn-spinner" aria-hidden="true" />
                  {TRIP_TEXTS.uploading}
                </>
              ) : (
                'Save trip'
              )}
            </button>
          </div>
        </div>
      </form>
    </section>
  );
}
