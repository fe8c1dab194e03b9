/**
 * What the landing page (/home) says and shows: six features, each with a clip recorded from the
 * product itself (scripts/clips writes them to `frontend/public/clips/`), and two slogans between
 * them. The slugs are the clips' file names: `/clips/<slug>.webm` (VP9), `.mp4` (H.264) and
 * `.jpg` (the poster), all 16:10.
 */

export const CLIP_SLUGS = [
  'map',
  'stories',
  'friends',
  'create-trip',
  'bucket-list',
  'chat',
] as const;
export type ClipSlug = (typeof CLIP_SLUGS)[number];

/** The clips' frame: 16:10, the size the posters are written at (width/height keep the box). */
export const CLIP_WIDTH = 960;
export const CLIP_HEIGHT = 600;

export interface ClipSources {
  webm: string;
  mp4: string;
  poster: string;
}

/** Where a clip's files are served (the WebM first: Debian's Chromium may lack H.264). */
export function clipSources(slug: ClipSlug): ClipSources {
  return {
    webm: `/clips/${slug}.webm`,
    mp4: `/clips/${slug}.mp4`,
    poster: `/clips/${slug}.jpg`,
  };
}

export interface Feature {
  slug: ClipSlug;
  title: string;
  text: string;
  /** What the clip shows, for assistive technology (the clip itself has no sound or text track). */
  clipLabel: string;
}

export const FEATURES: readonly Feature[] = [
  {
    slug: 'map',
    title: 'An interactive map of your journeys',
    text: 'Every destination you visit becomes a pin on a dark world map you can explore.',
    clipLabel: 'Screen recording: zooming across the world map and opening a pin of a trip.',
  },
  {
    slug: 'stories',
    title: 'Stories and photos on every stop',
    text: 'Keep a photo carousel and a personal journal for each place you have been.',
    clipLabel: "Screen recording: a destination's photo carousel and its journal.",
  },
  {
    slug: 'friends',
    title: "Browse your friends' adventures",
    text: 'See where your friends have travelled and read the stories they share.',
    clipLabel: "Screen recording: the friends list and a friend's trips on the map.",
  },
  {
    slug: 'create-trip',
    title: 'Create trips in minutes',
    text: 'Name a trip, set its dates and add destinations with photos and a story.',
    clipLabel: 'Screen recording: filling in a new trip with its dates and destinations.',
  },
  {
    slug: 'bucket-list',
    title: 'A bucket list that plans ahead',
    text: 'Save the places you dream of and sketch an itinerary for each one.',
    clipLabel: 'Screen recording: adding a place to the bucket list and writing its itinerary.',
  },
  {
    slug: 'chat',
    title: 'Chat to plan together',
    text: 'Message friends in real time and turn someday into a date on the calendar.',
    clipLabel: 'Screen recording: two friends chatting about their next trip.',
  },
];

/** The interstitial slogans, each shown after the feature at `after` (a 1-based count). */
export const SLOGANS: readonly { after: number; text: string; sub: string }[] = [
  {
    after: 2,
    text: 'Every pin holds a story.',
    sub: 'Where you went, what you saw, and what it felt like, kept together.',
  },
  {
    after: 4,
    text: 'Someday is a date you plan with friends.',
    sub: 'From a wish on your list to a trip on the calendar.',
  },
];
