import { PagePlaceholder } from '../components/PagePlaceholder';
import { PlusIcon } from '../components/icons';

export function Component() {
  return (
    <PagePlaceholder title="Add Trip" icon={<PlusIcon />}>
      Creating a new trip with destinations, photos and stories arrives soon.
    </PagePlaceholder>
  );
}
