import { useState } from 'react';
import { PinIcon } from '../components/icons';

/** A small square photo (a trip's cover, a destination's first photo), or a pin when none. */
export function TripThumb({ src, className = '' }: { src?: string | null; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const show = src && failed !== src;
  return (
    <span className={`trip-thumb ${className}`.trim()} aria-hidden="true">
      {show ? (
        <img src={src} alt="" loading="lazy" decoding="async" onError={() => setFailed(src)} />
      ) : (
        <PinIcon />
      )}
    </span>
  );
}
