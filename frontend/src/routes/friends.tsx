import { PagePlaceholder } from '../components/PagePlaceholder';
import { FriendsIcon } from '../components/icons';

export function Component() {
  return (
    <PagePlaceholder title="Friends" icon={<FriendsIcon />}>
      Friends arrive soon: your friends list, friend requests and their journeys on the map.
    </PagePlaceholder>
  );
}
