import { PagePlaceholder } from '../components/PagePlaceholder';
import { SearchIcon } from '../components/icons';

export function Component() {
  return (
    <PagePlaceholder title="Add Friends" icon={<SearchIcon />}>
      Searching for people to add as friends arrives soon.
    </PagePlaceholder>
  );
}
