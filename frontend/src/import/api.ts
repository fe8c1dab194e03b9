import { IMPORT_FIELD, type ImportResult } from '@wayfarer/contracts';
import { sendForm, type UploadProgress } from '../trips/api';

/**
 * `POST /api/import` with the file in `file` (contracts' `IMPORT_FIELD`), sent with
 * XMLHttpRequest for its upload progress (`sendForm`, like the trip form's photos): the trips
 * created and what was skipped (`ImportResult`); a refusal is an `ApiError` with the service's
 * message. It carries the `Idempotency-Key` of the chosen file (`sendForm`'s action key: the
 * file's name, type, size and modification time), the same each time that file is sent until
 * an import of it succeeds: a retry after a lost answer is answered the first import's result.
 */
export async function uploadImport(
  file: File,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<ImportResult> {
  const body = new FormData();
  body.append(IMPORT_FIELD, file, file.name);
  return (await sendForm<ImportResult>('/api/import', body, options)).data;
}
