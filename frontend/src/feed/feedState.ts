import type { FeedItem, FeedResponse } from '@wayfarer/contracts';
import { friendPin, hasPosition } from '../friends/friendsState';
import type { FriendMarker } from '../map/types';

/*
 * The feed screen's state (`/feed`): friends' trips page by page ('Load more' by the
 * answer's cursor). The trip shown on the map is the address's (`/feed?trip=`). Pure.
 */

export const FEED_TEXTS = {
  title: 'Feed',
  subtitle: 'Your friends’ latest trips. Choose one to see its destinations on the map.',
  empty: 'No trips from your friends yet. When a friend shares a trip, it shows up here.',
  loadFailed: 'Could not load the feed.',
  moreFailed: 'Could not load more trips.',
  loadMore: 'Load more',
  showAll: 'Show all on the map',
  untitled: 'Untitled trip',
} as const;

export interface FeedState {
  load: 'loading' | 'ready' | 'failed';
  items: FeedItem[];
  nextCursor: string | null;
  loadingMore: boolean;
  moreError: boolean;
}

export const initialFeedState: FeedState = {
  load: 'loading',
  items: [],
  nextCursor: null,
  loadingMore: false,
  moreError: false,
};

export type FeedAction =
  | { type: 'load-start' }
  | { type: 'loaded'; page: FeedResponse }
  | { type: 'load-failed' }
  | { type: 'more-start' }
  | { type: 'more-loaded'; page: FeedResponse }
  | { type: 'more-failed' };

export function feedReducer(state: FeedState, action: FeedAction): FeedState {
  switch (action.type) {
    case 'load-start':
      return state.load === 'ready' ? state : initialFeedState;
    case 'loaded':
      return {
        ...state,
        load: 'ready',
        items: action.page.items,
        nextCursor: action.page.nextCursor,
      };
    case 'load-failed':
      return state.load === 'ready' ? state : { ...state, load: 'failed' };
    case 'more-start':
      return state.load !== 'ready' || state.nextCursor === null || state.loadingMore
        ? state
        : { ...state, loadingMore: true, moreError: false };
    case 'more-loaded': {
      // a trip created between two reads can push one already shown onto the next page
      const seen = new Set(state.items.map((i) => i.trip._id));
      return {
        ...state,
        items: [...state.items, ...action.page.items.filter((i) => !seen.has(i.trip._id))],
        nextCursor: action.page.nextCursor,
        loadingMore: false,
        moreError: false,
      };
    }
    case 'more-failed':
      return { ...state, loadingMore: false, moreError: true };
  }
}

/**
 * The pins of the feed's map: the chosen trip's destinations, or every loaded trip's when none
 * is chosen (or the chosen one is not loaded). Friend pins carrying the friend's id, so their
 * info window loads the destination's photos (`useFriendPhotos`): the feed names only the
 * trip's first photo, not whose destination it is.
 */
export function feedMarkers(items: readonly FeedItem[], selected: string | null): FriendMarker[] {
  const chosen = items.filter((i) => i.trip._id === selected);
  const shown = chosen.length > 0 ? chosen : items;
  return shown.flatMap((item) =>
    item.destinations
      .filter((d) => hasPosition(d.latitude, d.longitude))
      .map((d) => friendPin(item.friend, d, [])),
  );
}

/** 'Lisbon · Porto · Faro' (the destinations in order), or 'No destinations'. */
export function destinationNames(item: FeedItem): string {
  return item.destinations.length === 0
    ? 'No destinations'
    : item.destinations.map((d) => d.name).join(' · ');
}
