import { useEffect, useState } from 'react';

/** Object URLs of the chosen photos (previews and the map's draft pins), revoked when dropped. */
export function useObjectUrls(files: readonly File[]): ReadonlyMap<File, string> {
  const [urls, setUrls] = useState<ReadonlyMap<File, string>>(() => new Map());
  useEffect(() => {
    const next = new Map(files.map((file) => [file, URL.createObjectURL(file)] as const));
    setUrls(next);
    return () => next.forEach((url) => URL.revokeObjectURL(url));
  }, [files]);
  return urls;
}
