import { useEffect, useId, useRef } from 'react';
import { CLIP_HEIGHT, CLIP_WIDTH, clipSources, type Feature } from './content';
import { useInView } from './useInView';

/** Poster and sources are attached this far ahead of the viewport (nothing loads before). */
const NEAR = '75% 0px';
/** A clip plays while at least this much of it shows. */
const PLAY_AT = 0.5;

/**
 * One feature: a muted, looping clip recorded from the product, and its caption (a number, a
 * title, one line), which fades in the first time it scrolls into view (`is-visible`).
 *
 * The clip loads lazily: until it comes near the viewport the <video> has no poster and no
 * source, so nothing is fetched; then the poster shows and the sources are attached with
 * `preload="none"`. It plays only while half of it is visible and pauses when it leaves. With
 * `prefers-reduced-motion: reduce` it never plays: the poster stays (a clip that was playing when
 * the setting changed is reloaded back to its poster).
 */
export function FeatureClip({
  feature,
  index,
  reducedMotion,
}: {
  feature: Feature;
  index: number;
  reducedMotion: boolean;
}) {
  const id = useId();
  const mediaRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const captionRef = useRef<HTMLDivElement>(null);
  const near = useInView(mediaRef, { rootMargin: NEAR, once: true });
  const visible = useInView(mediaRef, { threshold: PLAY_AT });
  const captionShown = useInView(captionRef, { threshold: 0.25, once: true });
  const sources = clipSources(feature.slug);
  const play = near && visible && !reducedMotion;

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    if (play) {
      video.muted = true; // the property, whatever the attribute: muted clips may play unasked
      video.play().catch(() => {
        // interrupted by a pause, or refused by the browser: the poster stays
      });
    } else if (!video.paused) {
      video.pause();
    }
  }, [play]);

  useEffect(() => {
    const video = videoRef.current;
    if (reducedMotion && video && video.played.length > 0) video.load();
  }, [reducedMotion]);

  const number = String(index + 1).padStart(2, '0');
  return (
    <section
      className={`feature${index % 2 === 1 ? ' feature--flip' : ''}`}
      aria-labelledby={`${id}-title`}
      data-feature={feature.slug}
    >
      <div ref={mediaRef} className="feature-media">
        <video
          ref={videoRef}
          className="feature-video"
          width={CLIP_WIDTH}
          height={CLIP_HEIGHT}
          muted
          playsInline
          loop
          preload="none"
          disablePictureInPicture
          poster={near ? sources.poster : undefined}
          aria-label={feature.clipLabel}
          aria-describedby={`${id}-text`}
          data-playing={play ? 'true' : 'false'}
        >
          {near ? (
            <>
              <source src={sources.webm} type="video/webm" />
              <source src={sources.mp4} type="video/mp4" />
            </>
          ) : null}
        </video>
      </div>
      <div
        ref={captionRef}
        className={`feature-caption reveal${captionShown ? ' is-visible' : ''}`}
      >
        <span className="feature-number" aria-hidden="true">
          {number}
        </span>
        <h3 id={`${id}-title`}>{feature.title}</h3>
        <p id={`${id}-text`}>{feature.text}</p>
      </div>
    </section>
  );
}
