import { useEffect, useState } from 'react';
import { nextPhoto, previousPhoto, wrapIndex, type CarouselLayout } from './carousel';

interface PhotoCarouselProps {
  photos: readonly string[];
  /** What the photos show (the destination's name), for alt text and labels. */
  title: string;
  layout: CarouselLayout;
}

/**
 * A destination's photos, one at a time: previous and next wrap around in
 * both directions; on desktop they are arrows over the photo, under 640 px wide they are
 * buttons below it. Sizes come from `carouselLayout`.
 */
export function PhotoCarousel({ photos, title, layout }: PhotoCarouselProps) {
  const [index, setIndex] = useState(0);
  const [failed, setFailed] = useState<ReadonlySet<string>>(() => new Set());
  const count = photos.length;
  const current = wrapIndex(index, count);
  const src = photos[current];

  // A new set of photos starts again from the first one; the same photos with new URLs (a
  // display variant replacing its stand-in: only the query changes) keep their place.
  const photosKey = photos.map((url) => url.split('?')[0]).join('\n');
  useEffect(() => {
    setIndex(0);
    setFailed(new Set());
  }, [photosKey]);

  const frameStyle =
    layout.mode === 'mobile'
      ? { height: layout.height }
      : { width: layout.width, height: layout.height };
  const previous = () => setIndex((i) => previousPhoto(i, count));
  const next = () => setIndex((i) => nextPhoto(i, count));
  const position = count > 0 ? `Photo ${current + 1} of ${count}` : '';

  return (
    <div
      className={`carousel carousel--${layout.mode}`}
      role="group"
      aria-roledescription="carousel"
      aria-label={`Photos of ${title}`}
    >
      <div className="carousel-frame" style={frameStyle}>
        {src && !failed.has(src) ? (
          <img
            key={src}
            className="carousel-photo"
            src={src}
            alt={`${title}, photo ${current + 1} of ${count}`}
            loading="lazy"
            decoding="async"
            onError={() => setFailed((prev) => new Set(prev).add(src))}
          />
        ) : (
          <div className="carousel-empty">
            <svg viewBox="0 0 24 24" width="34" height="34" aria-hidden="true" focusable="false">
              <rect x="3" y="5" width="18" height="14" rx="2.5" />
              <circle cx="9" cy="10" r="1.8" />
              <path d="m4.5 17.5 5-5 3.5 3.5 2.5-2.5 4 4" />
            </svg>
            <span>{src ? 'Photo unavailable' : 'No photos yet'}</span>
          </div>
        )}
        {count > 1 && layout.mode === 'desktop' ? (
          <>
            <button
              type="button"
              className="carousel-arrow carousel-arrow--prev"
              onClick={previous}
              aria-label="Previous photo"
            >
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path d="m14.5 6-6 6 6 6" />
              </svg>
            </button>
            <button
              type="button"
              className="carousel-arrow carousel-arrow--next"
              onClick={next}
              aria-label="Next photo"
            >
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <path d="m9.5 6 6 6-6 6" />
              </svg>
            </button>
            <span className="carousel-count" aria-hidden="true">
              {current + 1} / {count}
            </span>
          </>
        ) : null}
      </div>
      {count > 1 && layout.mode === 'mobile' ? (
        <div className="carousel-buttons">
          <button type="button" className="btn btn-ghost carousel-button" onClick={previous}>
            Previous
          </button>
          <span className="carousel-position" aria-hidden="true">
            {current + 1} / {count}
          </span>
          <button type="button" className="btn btn-ghost carousel-button" onClick={next}>
            Next
          </button>
        </div>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {position}
      </p>
    </div>
  );
}
