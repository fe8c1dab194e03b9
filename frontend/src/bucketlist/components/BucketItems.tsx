import { useEffect, useRef, type CSSProperties } from 'react';
import { PinIcon } from '../../components/icons';
import {
  BUCKET_HIGHLIGHT_MS,
  BUCKET_REMOVE_ANIMATION_MS,
  BUCKET_TEXTS,
  entryLabel,
  type Entry,
} from '../listState';

interface BucketItemsProps {
  entries: readonly Entry[];
  onTick: (id: string) => void;
  /** Shows the place on the map. */
  onShow: (id: string) => void;
}

/** The spec's timings, handed to the CSS animations so they live in one place. */
const TIMINGS = {
  '--bucket-highlight-ms': `${BUCKET_HIGHLIGHT_MS}ms`,
  '--bucket-remove-ms': `${BUCKET_REMOVE_ANIMATION_MS}ms`,
} as CSSProperties;

/**
 * The unvisited places: each with a checkbox that ticks it off (it animates
 * out while the server marks it) and its name, which shows it on the map. A new place is
 * highlighted for a moment; a tick the server refused brings the item back as 'Unknown'.
 * Ticking moves focus to the next item (or the previous one, or the list).
 */
export function BucketItems({ entries, onTick, onShow }: BucketItemsProps) {
  const listRef = useRef<HTMLUListElement>(null);

  // A new place is added last: bring it into view while it is highlighted.
  const newest = entries.findLast((e) => e.highlighted)?.item._id;
  useEffect(() => {
    if (!newest) return;
    listRef.current
      ?.querySelector(`[data-id="${CSS.escape(newest)}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [newest]);

  /** Focus stays in the list: on the next item's checkbox, else the previous one, else the list. */
  const moveFocusFrom = (box: HTMLInputElement) => {
    const list = listRef.current;
    if (!list) return;
    const boxes = Array.from(list.querySelectorAll<HTMLInputElement>('.bucket-check:enabled'));
    const at = boxes.indexOf(box);
    const next = boxes[at + 1] ?? boxes[at - 1];
    (next ?? list).focus();
  };

  return (
    <ul
      ref={listRef}
      className="bucket-list"
      aria-label="Places to visit"
      tabIndex={-1}
      style={TIMINGS}
    >
      {entries.map((entry) => {
        const label = entryLabel(entry);
        const removing = entry.removing !== null;
        const classes = [
          'bucket-item',
          entry.highlighted ? 'is-new' : '',
          removing ? 'is-removing' : '',
          entry.unknown ? 'is-unknown' : '',
        ]
          .filter(Boolean)
          .join(' ');
        return (
          <li
            key={entry.item._id}
            data-id={entry.item._id}
            className={classes}
            aria-hidden={removing || undefined}
          >
            <div className="bucket-item-inner">
              <input
                type="checkbox"
                className="bucket-check"
                checked={removing}
                disabled={removing}
                aria-label={`Tick off ${label}`}
                onChange={(event) => {
                  moveFocusFrom(event.currentTarget);
                  onTick(entry.item._id);
                }}
              />
              <button
                type="button"
                className="bucket-place"
                onClick={() => onShow(entry.item._id)}
                title="Show on the map"
              >
                <span className="bucket-place-text">
                  <span className="bucket-place-name">{label}</span>
                  {entry.unknown ? (
                    <span className="bucket-place-note">
                      {BUCKET_TEXTS.removeFailed(entry.item.place)}
                    </span>
                  ) : null}
                </span>
                <span className="bucket-pin" aria-hidden="true">
                  <PinIcon />
                </span>
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
