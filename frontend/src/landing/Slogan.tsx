import { useRef } from 'react';
import { useInView } from './useInView';

/** A one-line slogan between groups of features; fades in like the captions. */
export function Slogan({ text, sub }: { text: string; sub: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = useInView(ref, { threshold: 0.3, once: true });
  return (
    <div ref={ref} className={`slogan reveal${shown ? ' is-visible' : ''}`} data-slogan="">
      <p className="slogan-text">{text}</p>
      <p className="slogan-sub">{sub}</p>
    </div>
  );
}
