import { ShareMessages } from '@wayfarer/contracts';
import type { SharedMarker } from '../map/types';
import type { SharedTrip } from './api';

/**
 * The public page of a share link (`/s/{token}`), its pure parts: the texts, the
 * map's pins of the trip's destinations and the line under the title.
 */

export const SHARED_TEXTS = {
  eyebrow: 'A shared trip',
  loading: 'Loading the trip…',
  gone: ShareMessages.linkGone,
  goneDetail: 'It may have been revoked or have expired. Ask the person who sent it for a new one.',
  failed: 'The trip could not be loaded.',
  retry: 'Try again',
  toLanding: 'Discover Wayfarer',
  untitled: 'Untitled trip',
  destinations: 'Destinations',
  noDestinations: 'This trip has no destinations yet.',
  showOnMap: 'Show on the map',
  story: 'Story',
  journal: 'Journal',
  closingTitle: 'Keep your own travel map',
  closingText:
    'Pin the places you have been, share them with friends, or with a link like this one.',
  closingCta: 'Start your travel map',
} as const;

/** The trip's destinations as map pins (the public page's own kind: no owner, no journal). */
export function sharedMarkers(trip: SharedTrip): SharedMarker[] {
  return trip.destinations.map((d) => ({
    kind: 'shared',
    id: d._id,
    name: d.name,
    lat: d.latitude,
    lng: d.longitude,
    startDate: d.startDate,
    endDate: d.endDate,
    photos: d.photos,
  }));
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 destinations · 7 photos" (photos left out when there are none). */
export function sharedSummary(trip: SharedTrip): string {
  const photos = trip.destinations.reduce((sum, d) => sum + d.photos.length, 0);
  const parts = [count(trip.destinations.length, 'destination')];
  if (photos > 0) parts.push(count(photos, 'photo'));
  return parts.join(' · ');
}

/** The browser tab's title of the page. */
export const sharedTitle = (trip: SharedTrip | null) =>
  trip ? `${trip.name || SHARED_TEXTS.untitled} · Wayfarer` : 'Shared trip · Wayfarer';
