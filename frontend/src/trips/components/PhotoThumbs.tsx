import { CloseSmallIcon } from '../../components/icons';
import { formatBytes } from '../tripForm';

/** Previews of chosen (not yet sent) photos, each with a remove button when `onRemove` is given. */
export function PhotoThumbs({
  photos,
  urls,
  onRemove,
  label = 'Chosen photos',
}: {
  photos: readonly File[];
  urls: ReadonlyMap<File, string>;
  onRemove?: ((file: File) => void) | undefined;
  label?: string;
}) {
  if (photos.length === 0) return null;
  return (
    <ul className="photo-thumbs" aria-label={label}>
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
