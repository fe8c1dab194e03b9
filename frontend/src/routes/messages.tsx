import { useLocation } from 'react-router-dom';
import { PagePlaceholder } from '../components/PagePlaceholder';
import { ChatIcon } from '../components/icons';

interface FriendState {
  friend?: { id?: string; name?: string };
}

/** The friend to chat with comes in through navigation state (spec section 2). */
export function Component() {
  const state = useLocation().state as FriendState | null;
  const friend = state?.friend;

  if (!friend) {
    return (
      <PagePlaceholder title="Messages" icon={<ChatIcon />}>
        No friend selected to message.
      </PagePlaceholder>
    );
  }

  return (
    <PagePlaceholder
      title={friend.name ? `Chat with ${friend.name}` : 'Messages'}
      icon={<ChatIcon />}
    >
      Real-time chat arrives soon.
    </PagePlaceholder>
  );
}
