import type { MapMarker } from '../src/map/types';
import alfama from './photos/lisbon-3.svg?url';
import arashiyama from './photos/kyoto-2.svg?url';
import kyoto from './photos/kyoto-1.svg?url';
import lisbon from './photos/lisbon-1.svg?url';
import tagus from './photos/lisbon-2.svg?url';

/**
 * Fixture markers: two of the user's destinations close together (Lisbon with three photos and
 * Porto with none: one cluster at a world zoom), a friend's destination with two photos and a
 * bucket list place.
 */
export const FIXTURE_MARKERS: MapMarker[] = [
  {
    kind: 'own',
    id: 'lisbon',
    name: 'Lisbon',
    lat: 38.7223,
    lng: -9.1393,
    startDate: '2024-05-02',
    endDate: '2024-05-09',
    photos: [lisbon, tagus, alfama],
  },
  {
    kind: 'own',
    id: 'porto',
    name: 'Porto',
    lat: 41.1579,
    lng: -8.6291,
    startDate: '2024-05-10',
    endDate: '2024-05-12',
    photos: [],
  },
  {
    kind: 'friend',
    id: 'kyoto',
    name: 'Kyoto',
    lat: 35.0116,
    lng: 135.7681,
    startDate: '2023-11-14',
    endDate: '2023-11-20',
    photos: [kyoto, arashiyama],
    friendName: 'Mika Tanaka',
    friendPicture: null,
  },
  { kind: 'bucket', id: 'reykjavik', place: 'Reykjavík, Iceland', lat: 64.1466, lng: -21.9426 },
];

/** The user shown in their own destinations' info windows. */
export const FIXTURE_USER = { name: 'Ada Traveller', picture: null };

/** Extra pins far apart (with the fixture ones they span the world: the fit clamps to zoom 2). */
export const WORLD_MARKERS: MapMarker[] = [
  { kind: 'bucket', id: 'ushuaia', place: 'Ushuaia, Argentina', lat: -54.8019, lng: -68.303 },
  {
    kind: 'bucket',
    id: 'anchorage',
    place: 'Anchorage, United States',
    lat: 61.2181,
    lng: -149.9003,
  },
  { kind: 'bucket', id: 'hobart', place: 'Hobart, Australia', lat: -42.8821, lng: 147.3272 },
];
