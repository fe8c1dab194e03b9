/** The list's placeholder while the first answer is on its way. */
export function BucketSkeleton() {
  return (
    <div role="status" aria-live="polite">
      <span className="visually-hidden">Loading your bucket list…</span>
      <ul className="bucket-list" aria-hidden="true">
        {[62, 48, 55].map((width) => (
          <li key={width} className="bucket-item bucket-item--skeleton">
            <div className="bucket-item-inner">
              <span className="skeleton bucket-check-skeleton" />
              <span className="skeleton skeleton-line" style={{ width: `${width}%` }} />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
