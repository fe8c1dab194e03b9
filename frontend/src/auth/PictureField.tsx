import { AuthLimits } from '@wayfarer/contracts';
import { useEffect, useId, useState, type Ref } from 'react';
import { DEFAULT_AVATAR } from '../components/ProfileMenu';
import { isImageFile, PICTURE_ACCEPT } from './validation';

const pictureMaxMb = AuthLimits.profilePictureMaxBytes / (1024 * 1024);

/**
 * The profile picture input (registration and settings): a round preview of the chosen image
 * (else `current`, else the default avatar), the native file input with auth's image types, a
 * Remove button once one is chosen, the types and size under it, and the field's message.
 */
export function PictureField({
  file,
  error,
  current,
  optional = false,
  inputRef,
  onChange,
  onRemove,
}: {
  file: File | null;
  error?: string | undefined;
  /** The picture shown while none is chosen (the saved one). */
  current?: string | null | undefined;
  optional?: boolean;
  inputRef: Ref<HTMLInputElement>;
  onChange: (file: File | null) => void;
  onRemove: () => void;
}) {
  const id = useId();
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file || !isImageFile(file)) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label htmlFor={id} className="field-label">
        Profile picture
      </label>
      <div className="file-row">
        <span className="file-preview" aria-hidden="true">
          <img src={preview ?? (current || DEFAULT_AVATAR)} alt="" />
        </span>
        <div className="file-controls">
          <input
            ref={inputRef}
            id={id}
            className="file-input"
            type="file"
            name="profilePicture"
            accept={PICTURE_ACCEPT}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            onChange={(event) => onChange(event.target.files?.[0] ?? null)}
          />
          {file ? (
            <button type="button" className="btn-link" onClick={onRemove}>
              Remove picture
            </button>
          ) : null}
        </div>
      </div>
      <p id={hintId} className="field-hint">
        {optional ? 'Optional. ' : ''}JPG, PNG, GIF or WebP, up to {pictureMaxMb} MB.
      </p>
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
