import type { Friend } from '../api';
import { ChatIcon, PinIcon } from '../../components/icons';
import { friendSummary } from '../friendsState';
import { Avatar } from './Avatar';

interface FriendListProps {
  friends: readonly Friend[];
  onMessage: (friend: Friend) => void;
  onUnfriend: (id: string) => void;
  /** Zooms the map to one of the friend's destinations. */
  onShow: (destinationId: string) => void;
}

/** Destinations named on a card; the rest are on the map. */
const CHIPS_MAX = 6;

function UnfriendIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="9" cy="8.5" r="3.2" />
      <path d="M3.5 19c.7-3.2 2.9-5 5.5-5s4.8 1.8 5.5 5M16 11h5" />
    </svg>
  );
}

/** The user's friends with their pictures, trips, a Message and an Unfriend action each. */
export function FriendList({ friends, onMessage, onUnfriend, onShow }: FriendListProps) {
  return (
    <ul className="person-list" aria-label="Your friends">
      {friends.map((friend) => {
        const name = friend.name || 'Your friend';
        const places = friend.trips.flatMap((t) => t.destinations);
        return (
          <li key={friend.id} className="person-card">
            <div className="person-row">
              <Avatar src={friend.picture} name={friend.name} />
              <span className="person-text">
                <span className="person-name">{name}</span>
                <span className="person-meta">{friendSummary(friend)}</span>
              </span>
              <span className="person-actions">
                <button
                  type="button"
                  className="btn btn-ghost btn-sm btn-collapsible"
                  aria-label={`Message ${name}`}
                  onClick={() => onMessage(friend)}
                >
                  <ChatIcon />
                  <span className="person-action-label">Message</span>
                </button>
                <button
                  type="button"
                  className="icon-button icon-button--danger"
                  aria-label={`Unfriend ${name}`}
                  title="Unfriend"
                  onClick={() => onUnfriend(friend.id)}
                >
                  <UnfriendIcon />
                </button>
              </span>
            </div>
            {places.length > 0 ? (
              <ul className="person-places" aria-label={`${name}'s destinations`}>
                {places.slice(0, CHIPS_MAX).map((place) => (
                  <li key={place._id}>
                    <button
                      type="button"
                      className="place-chip"
                      onClick={() => onShow(place._id)}
                      aria-label={`Show ${place.name} on the map`}
                    >
                      <PinIcon />
                      {place.name}
                    </button>
                  </li>
                ))}
                {places.length > CHIPS_MAX ? (
                  <li className="person-more">+{places.length - CHIPS_MAX} more on the map</li>
                ) : null}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
