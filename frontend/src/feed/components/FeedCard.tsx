import type { FeedItem } from '@wayfarer/contracts';
import { CalendarIcon, PinIcon } from '../../components/icons';
import { Avatar } from '../../friends/components/Avatar';
import { formatDateRange } from '../../map/format';
import { TripThumb } from '../../trips/TripThumb';
import { destinationNames, FEED_TEXTS } from '../feedState';

/**
 * One friend's trip in the feed: the friend, the trip's name, dates, destinations and first
 * photo. The card is a button: it shows the trip's destinations on the map (pressed while shown).
 */
export function FeedCard({
  item,
  selected,
  onShow,
}: {
  item: FeedItem;
  selected: boolean;
  onShow: (tripId: string) => void;
}) {
  const friend = item.friend.name || 'A friend';
  const name = item.trip.name || FEED_TEXTS.untitled;
  return (
    <button
      type="button"
      className={`feed-card${selected ? ' is-selected' : ''}`}
      aria-pressed={selected}
      data-trip={item.trip._id}
      onClick={() => onShow(item.trip._id)}
    >
      <span className="feed-photo">
        <TripThumb src={item.firstPhoto} className="feed-thumb" />
      </span>
      <span className="feed-body">
        <span className="feed-friend">
          <span className="avatar-slot" aria-hidden="true">
            <Avatar src={item.friend.picture} name={friend} size={24} />
          </span>
          <span className="feed-friend-name">{friend}</span>
        </span>
        <span className="feed-name">{name}</span>
        <span className="trip-card-dates">
          <CalendarIcon />
          {formatDateRange(item.trip.startDate, item.trip.endDate)}
        </span>
        <span className="feed-places">
          <PinIcon />
          <span>{destinationNames(item)}</span>
        </span>
      </span>
    </button>
  );
}
