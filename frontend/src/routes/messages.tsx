import type { ProtectedResponse } from '@wayfarer/contracts';
import { useEffect, useState } from 'react';
import {
  Link,
  useLoaderData,
  useLocation,
  useParams,
  type LoaderFunctionArgs,
} from 'react-router-dom';
import { apiFetch } from '../api/client';
import { getUserId } from '../auth/session';
import { ChatWindow, type ChatFriend } from '../chat/components/ChatWindow';
import { CHAT_TEXTS } from '../chat/chatState';
import { PagePlaceholder } from '../components/PagePlaceholder';
import { ChatIcon } from '../components/icons';
import { fetchFriends } from '../friends/api';
import '../styles/trips.css';
import '../styles/friends.css';
import '../styles/chat.css';

/** Who I am: the session's user id (the stored `userId` only when the session call fails). */
export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const session = await apiFetch<ProtectedResponse>('/api/protected', {
      signal: request.signal,
    });
    return { me: session.userId };
  } catch {
    return { me: getUserId() };
  }
}

interface FriendState {
  friend?: { id?: string; name?: string; picture?: string | null };
}

type Lookup = { status: 'loading' } | { status: 'done'; friend: ChatFriend | null };

/**
 * Chat with one friend (`/messages/{id}`). The friend comes in through
 * navigation state (the Message action on /friends). Reached by a direct link or a reload (no
 * state), the friend is looked up by id among the user's friends (`GET /api/friends`); when they
 * are not a friend (or the list cannot be had) the screen says 'No friend selected to message.'
 */
export function Component() {
  const { me } = useLoaderData<typeof loader>();
  const { id = '' } = useParams();
  const passed = (useLocation().state as FriendState | null)?.friend;
  const given: ChatFriend | null =
    passed?.id === id ? { id, name: passed.name ?? '', picture: passed.picture ?? null } : null;
  const [lookup, setLookup] = useState<Lookup>({ status: 'loading' });
  const needsLookup = given === null;

  useEffect(() => {
    if (!needsLookup) return;
    const controller = new AbortController();
    setLookup({ status: 'loading' });
    fetchFriends(controller.signal).then(
      (friends) => {
        const f = friends.find((x) => x.id === id);
        setLookup({
          status: 'done',
          friend: f ? { id: f.id, name: f.name, picture: f.picture } : null,
        });
      },
      (e: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Failed to fetch friends', e);
        setLookup({ status: 'done', friend: null });
      },
    );
    return () => controller.abort();
  }, [id, needsLookup]);

  const friend = given ?? (lookup.status === 'done' ? lookup.friend : null);

  if (!friend || !me || friend.id === me) {
    if (!given && lookup.status === 'loading') {
      return (
        <section className="page chat-page" aria-labelledby="page-title" aria-busy="true">
          <h1 id="page-title" className="visually-hidden">
            Messages
          </h1>
          <div className="chat-skeleton" aria-hidden="true" />
        </section>
      );
    }
    return (
      <PagePlaceholder
        title="Messages"
        icon={<ChatIcon />}
        extra={
          <Link to="/friends" className="btn btn-ghost">
            Go to Friends
          </Link>
        }
      >
        {CHAT_TEXTS.noFriend}
      </PagePlaceholder>
    );
  }

  // a new friend id is a new conversation: a fresh chat (socket, state)
  return <ChatWindow key={friend.id} me={me} friend={friend} />;
}
