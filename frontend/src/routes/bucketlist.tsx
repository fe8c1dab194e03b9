import { PagePlaceholder } from '../components/PagePlaceholder';
import { BucketIcon } from '../components/icons';

export function Component() {
  return (
    <PagePlaceholder title="Bucket List" icon={<BucketIcon />}>
      Your bucket list arrives soon: search for places you dream of visiting and plan an itinerary
      for each.
    </PagePlaceholder>
  );
}
