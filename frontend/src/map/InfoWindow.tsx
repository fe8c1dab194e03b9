import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { DEFAULT_AVATAR } from '../components/ProfileMenu';
import type { CarouselLayout } from './carousel';
import { formatDateRange } from './format';
import { useMarkerPhotos } from './MarkerPhotos';
import { PhotoCarousel } from './PhotoCarousel';
import {
  markerTitle,
  type BucketMarker,
  type FriendMarker,
  type MapMarker,
  type MapUser,
  type OwnMarker,
} from './types';

/** Slots for the boxes later issues bring (journal box, itinerary editor). */
export interface InfoWindowSlots {
  /** The journal box of a destination; `readOnly` is true for a friend's destination. */
  renderJournal?: (marker: OwnMarker | FriendMarker, options: { readOnly: boolean }) => ReactNode;
  /** The itinerary editor of a bucket list place. */
  renderItinerary?: (marker: BucketMarker) => ReactNode;
}

export interface InfoWindowProps extends InfoWindowSlots {
  marker: MapMarker;
  user?: MapUser;
  layout: CarouselLayout;
  onClose: () => void;
  /** Focus the close button when opened (keyboard users land inside the window). */
  autoFocus?: boolean;
}

function Avatar({ src, name }: { src?: string | null; name: string }) {
  const [url, setUrl] = useState(src || DEFAULT_AVATAR);
  useEffect(() => setUrl(src || DEFAULT_AVATAR), [src]);
  return (
    <img
      className="info-avatar"
      src={url}
      alt={name ? `${name}'s profile picture` : 'Profile picture'}
      width={36}
      height={36}
      onError={() => {
        if (url !== DEFAULT_AVATAR) setUrl(DEFAULT_AVATAR);
      }}
    />
  );
}

/** A destination's carousel, with the photos `MarkerPhotosContext` gives for it. */
function DestinationPhotos({
  marker,
  title,
  layout,
}: {
  marker: OwnMarker | FriendMarker;
  title: string;
  layout: CarouselLayout;
}) {
  const photos = useMarkerPhotos(marker);
  return <PhotoCarousel photos={photos} title={title} layout={layout} />;
}

function CloseIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M6.5 6.5 17.5 17.5M17.5 6.5 6.5 17.5" />
    </svg>
  );
}

/**
 * The info window of a selected pin, in its variants:
 * - own destination: name, dates, photo carousel, the user's picture and name, the journal;
 * - friend destination: the same with the friend's picture and name, a read-only journal and
 *   a plain close mark "×";
 * - bucket list place: titled by `place`, with the itinerary editor;
 * - a shared trip's destination (the public page): name, dates and the photo carousel.
 * Escape closes it wherever focus is (handled by the provider, which owns the selection).
 */
export function InfoWindow({
  marker,
  user,
  layout,
  onClose,
  autoFocus = true,
  renderJournal,
  renderItinerary,
}: InfoWindowProps) {
  const titleId = useId();
  const windowRef = useRef<HTMLElement>(null);
  const title = markerTitle(marker);

  // Focus moves into the window (Tab then reaches its controls; Escape closes it).
  useEffect(() => {
    if (autoFocus) windowRef.current?.focus({ preventScroll: true });
  }, [autoFocus, marker.id]);

  const close =
    marker.kind === 'friend' ? (
      <button
        type="button"
        className="info-close info-close--plain"
        onClick={onClose}
        aria-label="Close"
      >
        ×
      </button>
    ) : (
      <button type="button" className="info-close" onClick={onClose} aria-label="Close">
        <CloseIcon />
      </button>
    );

  let body: ReactNode;
  if (marker.kind === 'shared') {
    // a trip shown by its link: no owner, no journal (the page lists the stories)
    const dates = formatDateRange(marker.startDate, marker.endDate);
    body = (
      <>
        {dates ? <p className="info-dates">{dates}</p> : null}
        <PhotoCarousel photos={marker.photos} title={title} layout={layout} />
      </>
    );
  } else if (marker.kind === 'bucket') {
    body = (
      <>
        <p className="info-kind">Bucket list</p>
        {renderItinerary ? (
          <div className="info-slot info-slot--itinerary">{renderItinerary(marker)}</div>
        ) : null}
      </>
    );
  } else {
    const own = marker.kind === 'own';
    const dates = formatDateRange(marker.startDate, marker.endDate);
    const personName = own ? (user?.name ?? '') : marker.friendName;
    const picture = own ? user?.picture : marker.friendPicture;
    body = (
      <>
        {dates ? <p className="info-dates">{dates}</p> : null}
        <DestinationPhotos marker={marker} title={title} layout={layout} />
        <div className="info-person">
          <Avatar src={picture} name={personName} />
          <div>
            <p className="info-person-name">{personName || 'You'}</p>
            <p className="info-person-caption">{own ? 'Your journal' : "Friend's journal"}</p>
          </div>
        </div>
        {renderJournal ? (
          <div className={`info-slot info-slot--journal${own ? '' : ' is-read-only'}`}>
            {renderJournal(marker, { readOnly: !own })}
          </div>
        ) : null}
      </>
    );
  }

  return (
    <section
      ref={windowRef}
      tabIndex={-1}
      className={`info-window info-window--${marker.kind} info-window--${layout.mode}`}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      style={layout.mode === 'desktop' ? { width: layout.width + 28 } : undefined}
    >
      <header className="info-header">
        <h2 id={titleId} className="info-title">
          {title}
        </h2>
        {close}
      </header>
      <div className="info-body">{body}</div>
    </section>
  );
}
