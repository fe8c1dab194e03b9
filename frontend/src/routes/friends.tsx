import { useEffect, useMemo, useRef } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FriendsIcon, PlusIcon } from '../components/icons';
import { Toast } from '../components/Toast';
import { FriendList } from '../friends/components/FriendList';
import { FriendsSkeleton } from '../friends/components/FriendsSkeleton';
import { RequestList } from '../friends/components/RequestList';
import { FRIENDS_TEXTS, friendMarkers } from '../friends/friendsState';
import { useFriends } from '../friends/useFriends';
import { useMapFocus, useMapMarkers } from '../map/MapContext';
import { useLive } from '../live/LiveProvider';
import '../styles/trips.css';
import '../styles/friends.css';
import { EmptyCard, ErrorCard } from '../components/StateCard';

/**
 * Friends (`/friends`): friend requests with Accept and Decline, the
 * friends with their pictures, a Message action (`/messages/{id}` with the friend in navigation
 * state) and an Unfriend action each, and every friend's destination as a pin on the map (the
 * friend variant of the info window: their picture and name, photos, read-only journal). Rules
 * live in `src/friends/friendsState.ts`.
 */
export function Component() {
  const f = useFriends();
  const { state } = f;
  const navigate = useNavigate();
  const focus = useMapFocus();
  const markers = useMemo(() => friendMarkers(state.friends), [state.friends]);
  useMapMarkers(markers);

  // the navigation's Friends count follows the requests shown here
  const setRequests = useLive()?.setRequests;
  const requestCount = state.requestsLoad === 'ready' ? state.requests.length : null;
  useEffect(() => {
    if (requestCount !== null) setRequests?.(requestCount);
  }, [requestCount, setRequests]);

  // `/friends#requests` (a friend request's notification): the requests in view, focused once
  const { hash } = useLocation();
  const requestsRef = useRef<HTMLElement>(null);
  const broughtIntoView = useRef(false);
  const hasRequests = state.requests.length > 0;
  useEffect(() => {
    if (hash !== '#requests') {
      broughtIntoView.current = false;
      return;
    }
    if (!hasRequests || broughtIntoView.current) return;
    broughtIntoView.current = true;
    requestsRef.current?.scrollIntoView({ block: 'start' });
    requestsRef.current?.focus({ preventScroll: true });
  }, [hash, hasRequests]);

  let friends;
  if (state.friendsLoad === 'loading') {
    friends = <FriendsSkeleton />;
  } else if (state.friendsLoad === 'failed') {
    friends = <ErrorCard message={FRIENDS_TEXTS.loadFailed} onRetry={f.retry} />;
  } else if (state.friends.length === 0) {
    friends = (
      <EmptyCard icon={<FriendsIcon />} text={FRIENDS_TEXTS.empty}>
        <div className="state-actions">
          <Link to="/addFriends" className="btn btn-primary">
            <PlusIcon />
            Add Friends
          </Link>
        </div>
      </EmptyCard>
    );
  } else {
    friends = (
      <FriendList
        friends={state.friends}
        onMessage={(friend) =>
          navigate(`/messages/${encodeURIComponent(friend.id)}`, {
            state: { friend: { id: friend.id, name: friend.name, picture: friend.picture } },
          })
        }
        onUnfriend={f.askUnfriend}
        onShow={focus}
      />
    );
  }

  const pending = state.unfriend;
  return (
    <section className="page friends-page" aria-labelledby="page-title">
      <header className="page-header page-header--row">
        <div>
          <h1 id="page-title">Friends</h1>
          <p className="page-subtitle" aria-live="polite">
            {state.friendsLoad === 'ready' && state.friends.length > 0
              ? `${state.friends.length} friend${state.friends.length === 1 ? '' : 's'} · ${markers.length} destination${markers.length === 1 ? '' : 's'} on the map`
              : 'Your friends’ journeys, pinned on the map.'}
          </p>
        </div>
        <Link to="/addFriends" className="btn btn-primary">
          <PlusIcon />
          Add Friends
        </Link>
      </header>

      {/* both failed: the friends' message says it, its Try again reloads both */}
      {state.requestsLoad === 'failed' && state.friendsLoad !== 'failed' ? (
        <ErrorCard
          message={FRIENDS_TEXTS.requestsFailed}
          onRetry={f.retry}
          className="friends-requests-error"
        />
      ) : state.requests.length > 0 ? (
        <section
          className="friends-section"
          aria-labelledby="requests-title"
          id="requests"
          ref={requestsRef}
          tabIndex={-1}
        >
          <h2 id="requests-title" className="section-title">
            Friend requests <span className="count-badge">{state.requests.length}</span>
          </h2>
          <RequestList entries={state.requests} onAccept={f.accept} onDecline={f.decline} />
        </section>
      ) : null}

      <section className="friends-section" aria-labelledby="friends-title">
        <h2 id="friends-title" className="section-title">
          Your friends
        </h2>
        {friends}
      </section>

      <ConfirmDialog
        open={pending !== null}
        title={FRIENDS_TEXTS.confirmUnfriend(pending?.friend.name ?? '')}
        description={FRIENDS_TEXTS.unfriendDetail}
        confirmLabel="Unfriend"
        cancelLabel="Cancel"
        busy={pending?.busy}
        error={pending?.error}
        onConfirm={f.confirmUnfriend}
        onCancel={f.cancelUnfriend}
      />
      {state.notice ? (
        <div className="toast-region">
          <Toast message={state.notice} tone="success" timeout={4000} onDismiss={f.dismissNotice} />
        </div>
      ) : null}
    </section>
  );
}
