import type { BucketListItem } from '@wayfarer/contracts';
import { formatShortDate } from '../../map/format';
import { visitedLine } from '../listState';

/**
 * The places already visited (the list shows only unvisited ones): a collapsed section, each
 * with a small 'visited on <trip name>' line, or when it was ticked off by hand.
 */
export function VisitedHistory({ items }: { items: readonly BucketListItem[] }) {
  if (items.length === 0) return null;
  return (
    <details className="bucket-history">
      <summary>
        Visited <span className="bucket-history-count">{items.length}</span>
      </summary>
      <ul aria-label="Visited places">
        {items.map((item) => (
          <li key={item._id} className="bucket-history-item">
            <span className="bucket-history-place">{item.place}</span>
            <span className="bucket-history-line">{visitedLine(item, formatShortDate)}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
