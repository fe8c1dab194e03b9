import { useEffect, useState } from 'react';
import { DEFAULT_AVATAR } from '../../components/ProfileMenu';

/** A person's profile picture, the default avatar when missing or broken. */
export function Avatar({
  src,
  name,
  size = 44,
}: {
  src?: string | null;
  name: string;
  size?: number;
}) {
  const [url, setUrl] = useState(src || DEFAULT_AVATAR);
  useEffect(() => setUrl(src || DEFAULT_AVATAR), [src]);
  return (
    <img
      className="person-avatar"
      src={url}
      alt={name ? `${name}'s profile picture` : 'Profile picture'}
      width={size}
      height={size}
      loading="lazy"
      onError={() => {
        if (url !== DEFAULT_AVATAR) setUrl(DEFAULT_AVATAR);
      }}
    />
  );
}
