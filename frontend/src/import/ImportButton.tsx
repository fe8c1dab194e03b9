import { useRef } from 'react';
import { IMPORT_ACCEPT } from '@wayfarer/contracts';
import { UploadIcon } from '../components/icons';
import { IMPORT_TEXTS } from './importState';
import type { Importer } from './useImport';

/**
 * The trips list's Import button: opens the file picker (GPX, KML, GeoJSON, ZIP; the
 * service decides by the bytes) and starts the upload of the file chosen.
 */
export function ImportButton({ importer }: { importer: Importer }) {
  const input = useRef<HTMLInputElement>(null);
  const busy = importer.state.status === 'uploading';
  return (
    <>
      <button
        type="button"
        className="btn btn-ghost"
        onClick={() => input.current?.click()}
        disabled={busy}
        title={IMPORT_TEXTS.buttonHint}
        aria-describedby="import-hint"
      >
        <UploadIcon />
        {IMPORT_TEXTS.button}
      </button>
      <span id="import-hint" className="visually-hidden">
        {IMPORT_TEXTS.buttonHint}
      </span>
      <input
        ref={input}
        type="file"
        accept={IMPORT_ACCEPT}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="import-file"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          // the same file may be chosen again after a failure
          event.currentTarget.value = '';
          if (file) importer.start(file);
        }}
      />
    </>
  );
}
