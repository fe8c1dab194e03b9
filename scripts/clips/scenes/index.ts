import type { Scene } from '../scene';
import { bucketList } from './bucket-list';
import { chat } from './chat';
import { createTrip } from './create-trip';
import { friends } from './friends';
import { map } from './map';
import { stories } from './stories';

/** The landing page's clips, in its order. */
export const SCENES: readonly Scene[] = [map, stories, friends, createTrip, bucketList, chat];
