/** The friends list's placeholder while the first answer is on its way. */
export function FriendsSkeleton() {
  return (
    <div role="status" aria-live="polite">
      <span className="visually-hidden">Loading your friends…</span>
      <ul className="person-list" aria-hidden="true">
        {[58, 44, 51].map((width) => (
          <li key={width} className="person-card">
            <div className="person-row">
              <span className="skeleton person-avatar" />
              <span className="person-text">
                <span className="skeleton skeleton-line" style={{ width: `${width}%` }} />
                <span
                  className="skeleton skeleton-line skeleton-line--small"
                  style={{ width: '30%' }}
                />
              </span>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
