/**
 * The demo data `npm run demo:seed` puts into a running Wayfarer through its public API: three
 * travellers who are friends, their trips (real places and coordinates), the journals of their
 * destinations, their bucket lists with itineraries and two conversations. Photos are generated
 * from each destination's `scene` (scripts/demo/images.ts), never downloaded.
 */

/** The password of every demo user. */
export const DEMO_PASSWORD = 'wayfarer demo 2026';

export type UserKey = 'maya' | 'theo' | 'lena';

export interface DemoUser {
  key: UserKey;
  name: string;
  email: string;
  /** Two colours of the generated avatar. */
  avatar: readonly [string, string];
}

export const USERS: readonly DemoUser[] = [
  {
    key: 'maya',
    name: 'Maya Lindqvist',
    email: 'maya.demo@example.com',
    avatar: ['#f28c6b', '#6b3fa0'],
  },
  {
    key: 'theo',
    name: 'Theo Okafor',
    email: 'theo.demo@example.com',
    avatar: ['#3fb8af', '#1d3557'],
  },
  {
    key: 'lena',
    name: 'Lena Moreau',
    email: 'lena.demo@example.com',
    avatar: ['#ffd166', '#ef476f'],
  },
];

/** Every pair of demo users is friends: the first asks, the second accepts. */
export const FRIENDSHIPS: readonly (readonly [UserKey, UserKey])[] = [
  ['maya', 'theo'],
  ['maya', 'lena'],
  ['theo', 'lena'],
];

/** What a generated photo looks like: a landscape of this kind in these colours. */
export interface Scene {
  kind: 'coast' | 'mountains' | 'city' | 'desert' | 'lake';
  /** Sky from top to horizon. */
  sky: readonly [string, string];
  /** Water, or the ground in front. */
  ground: string;
  /** Hills, ridges or buildings. */
  relief: string;
  /** Sun (or moon) height above the horizon, 0..1 of the sky, and its x, 0..1. */
  sun: readonly [height: number, x: number];
}

export interface DemoDestination {
  name: string;
  latitude: number;
  longitude: number;
  startDate: string;
  endDate: string;
  /** The trip form's short story. */
  story: string;
  /** The destination's journal (`POST /api/journal`), longer. */
  journal: string;
  photos: number;
  scene: Scene;
}

export interface DemoTrip {
  owner: UserKey;
  name: string;
  destinations: readonly DemoDestination[];
}

export const TRIPS: readonly DemoTrip[] = [
  {
    owner: 'maya',
    name: 'Norwegian fjords by train and ferry',
    destinations: [
      {
        name: 'Bergen, Norway',
        latitude: 60.3913,
        longitude: 5.3221,
        startDate: '2025-06-10',
        endDate: '2025-06-13',
        story: 'Rain, fish market, and the funicular up Fløyen at midnight sun.',
        journal:
          'Bergen greeted us with the rain everyone warned about, and then the sky cleared for three days straight. We walked Bryggen early before the cruise crowds, ate fish soup at the market, and took the Fløibanen up Mount Fløyen at 11 pm: still light, the harbour glowing orange below us.',
        photos: 2,
        scene: {
          kind: 'coast',
          sky: ['#5d7fa8', '#f3c58f'],
          ground: '#2d4b63',
          relief: '#34463f',
          sun: [0.15, 0.72],
        },
      },
      {
        name: 'Flåm, Norway',
        latitude: 60.8628,
        longitude: 7.1137,
        startDate: '2025-06-13',
        endDate: '2025-06-16',
        story:
          'The Flåm railway, waterfalls close enough to feel, and a kayak on the Aurlandsfjord.',
        journal:
          'The Flåm railway drops 860 metres in twenty kilometres; the train stops at Kjosfossen so you can stand in the spray. Next morning we rented kayaks and paddled out on the Aurlandsfjord, walls of rock on both sides and goats somewhere high above us.',
        photos: 2,
        scene: {
          kind: 'mountains',
          sky: ['#6fa3d8', '#d9ecf7'],
          ground: '#1f4e5f',
          relief: '#2f4f3a',
          sun: [0.7, 0.3],
        },
      },
      {
        name: 'Ålesund, Norway',
        latitude: 62.4722,
        longitude: 6.1549,
        startDate: '2025-06-16',
        endDate: '2025-06-18',
        story: 'Art nouveau town, 418 steps up Aksla for the view.',
        journal:
          'Ålesund burned down in 1904 and was rebuilt all at once in art nouveau, so every street looks like a postcard. We climbed the 418 steps to Fjellstua for sunset over the islands and ate the best bacalao of the trip.',
        photos: 1,
        scene: {
          kind: 'coast',
          sky: ['#2b3a67', '#f6a26b'],
          ground: '#27445c',
          relief: '#1e2b36',
          sun: [0.05, 0.45],
        },
      },
    ],
  },
  {
    owner: 'maya',
    name: 'A week in Kyoto',
    destinations: [
      {
        name: 'Kyoto, Japan',
        latitude: 35.0116,
        longitude: 135.7681,
        startDate: '2024-11-02',
        endDate: '2024-11-09',
        story: 'Autumn leaves, temple mornings and tofu in Arashiyama.',
        journal:
          'We got to Fushimi Inari at 6 am and had the gates almost to ourselves. The maples in Eikando were at their reddest; in Arashiyama the bamboo grove creaked in the wind. Best meal: yudofu near Tenryu-ji, simple and perfect.',
        photos: 2,
        scene: {
          kind: 'city',
          sky: ['#f7b267', '#f4845f'],
          ground: '#3c2f2f',
          relief: '#2a1f2d',
          sun: [0.2, 0.6],
        },
      },
    ],
  },
  {
    owner: 'theo',
    name: 'Patagonia on foot',
    destinations: [
      {
        name: 'El Chaltén, Argentina',
        latitude: -49.3315,
        longitude: -72.8863,
        startDate: '2025-01-05',
        endDate: '2025-01-10',
        story: 'Laguna de los Tres at sunrise, Fitz Roy on fire.',
        journal:
          'We left at 2 am with headlamps to reach Laguna de los Tres for sunrise. The last kilometre is brutally steep, but then Fitz Roy turned pink, then orange, then gold. Worth every blister. The town runs on empanadas and craft beer.',
        photos: 2,
        scene: {
          kind: 'mountains',
          sky: ['#f08a5d', '#fcd7a1'],
          ground: '#3b6e8f',
          relief: '#3a3240',
          sun: [0.1, 0.25],
        },
      },
      {
        name: 'Torres del Paine, Chile',
        latitude: -50.9423,
        longitude: -73.4068,
        startDate: '2025-01-11',
        endDate: '2025-01-16',
        story: 'The W trek in five days, wind strong enough to lean on.',
        journal:
          'The W trek: five days, about 80 km, and wind you can lean on. Grey Glacier calved while we watched from the lookout. On the last morning the towers were clear for ten minutes before the clouds came back.',
        photos: 2,
        scene: {
          kind: 'lake',
          sky: ['#4a6fa5', '#c6dbef'],
          ground: '#4fb0c6',
          relief: '#5b5f66',
          sun: [0.6, 0.8],
        },
      },
    ],
  },
  {
    owner: 'theo',
    name: 'Moroccan loop',
    destinations: [
      {
        name: 'Marrakesh, Morocco',
        latitude: 31.6295,
        longitude: -7.9811,
        startDate: '2024-04-03',
        endDate: '2024-04-06',
        story: 'Jemaa el-Fnaa at dusk, mint tea on every roof.',
        journal:
          'Jemaa el-Fnaa changes completely at dusk: the juice stalls give way to smoke and grills and music. We got lost in the souks twice on purpose. The Jardin Majorelle blue is even bluer in person.',
        photos: 2,
        scene: {
          kind: 'city',
          sky: ['#e76f51', '#f4a261'],
          ground: '#9c5a3c',
          relief: '#6d3b2a',
          sun: [0.12, 0.35],
        },
      },
      {
        name: 'Merzouga, Morocco',
        latitude: 31.0802,
        longitude: -4.0133,
        startDate: '2024-04-07',
        endDate: '2024-04-09',
        story: 'A night in the Erg Chebbi dunes under more stars than sky.',
        journal:
          'Camels at sunset into Erg Chebbi, then a night at a desert camp with drums and more stars than I have ever seen. We climbed the big dune before dawn; the sand was cold and the sunrise silent.',
        photos: 2,
        scene: {
          kind: 'desert',
          sky: ['#355c7d', '#f8b195'],
          ground: '#d98e4a',
          relief: '#c06c34',
          sun: [0.08, 0.7],
        },
      },
    ],
  },
  {
    owner: 'lena',
    name: 'Greek islands summer',
    destinations: [
      {
        name: 'Santorini, Greece',
        latitude: 36.3932,
        longitude: 25.4615,
        startDate: '2025-07-20',
        endDate: '2025-07-24',
        story: 'Oia sunsets and the caldera swim.',
        journal:
          'Everyone crowds into Oia for sunset, and it is a crowd worth joining once. The better evening was in Imerovigli, quieter, with the caldera turning violet. We swam off the boat at the hot springs; the water is the colour of rust.',
        photos: 2,
        scene: {
          kind: 'coast',
          sky: ['#6a4c93', '#ffb997'],
          ground: '#1b4f72',
          relief: '#3d2c3e',
          sun: [0.08, 0.55],
        },
      },
      {
        name: 'Naxos, Greece',
        latitude: 37.1036,
        longitude: 25.3766,
        startDate: '2025-07-24',
        endDate: '2025-07-28',
        story: 'Portara at dawn, mountain villages, endless beaches.',
        journal:
          'The Portara, a marble doorway to nowhere, is the first thing you see from the ferry. We rented a scooter to Halki and Apiranthos, villages of marble streets, then spent two days doing nothing on Plaka beach.',
        photos: 2,
        scene: {
          kind: 'coast',
          sky: ['#48cae4', '#caf0f8'],
          ground: '#0077b6',
          relief: '#b08968',
          sun: [0.75, 0.2],
        },
      },
    ],
  },
  {
    owner: 'lena',
    name: 'Iceland ring road',
    destinations: [
      {
        name: 'Vík, Iceland',
        latitude: 63.4186,
        longitude: -19.006,
        startDate: '2024-09-12',
        endDate: '2024-09-14',
        story: 'Black sand, basalt columns and the Reynisdrangar stacks.',
        journal:
          'Reynisfjara is as dramatic as the pictures and more dangerous than it looks: the sneaker waves are real. The basalt columns look carved. That night the aurora came out faint and green over the church on the hill.',
        photos: 2,
        scene: {
          kind: 'coast',
          sky: ['#2e4057', '#8fa9bf'],
          ground: '#33414e',
          relief: '#151a1f',
          sun: [0.3, 0.85],
        },
      },
      {
        name: 'Jökulsárlón, Iceland',
        latitude: 64.0784,
        longitude: -16.2306,
        startDate: '2024-09-14',
        endDate: '2024-09-16',
        story: 'Icebergs drifting out to Diamond Beach.',
        journal:
          'Icebergs break off Breiðamerkurjökull and drift through the lagoon to the sea, where they wash up on Diamond Beach like glass. Seals followed our zodiac. Cold, blue and completely quiet.',
        photos: 2,
        scene: {
          kind: 'lake',
          sky: ['#a8dadc', '#f1faee'],
          ground: '#457b9d',
          relief: '#e0f2f7',
          sun: [0.45, 0.4],
        },
      },
    ],
  },
];

export interface DemoBucketItem {
  owner: UserKey;
  place: string;
  latitude: number;
  longitude: number;
  itinerary: readonly string[];
}

/** Places none of their owner's trips went near (a trip nearby would tick them off as visited). */
export const BUCKET_LIST: readonly DemoBucketItem[] = [
  {
    owner: 'maya',
    place: 'Lisbon, Portugal',
    latitude: 38.7223,
    longitude: -9.1393,
    itinerary: [
      'Day 1: tram 28 through Alfama, sunset at Miradouro da Senhora do Monte',
      'Day 2: Belém tower and pastéis de Belém',
      'Day 3: day trip to Sintra and Pena Palace',
    ],
  },
  {
    owner: 'maya',
    place: 'Hanoi, Vietnam',
    latitude: 21.0285,
    longitude: 105.8542,
    itinerary: ['Street food tour in the Old Quarter', 'Overnight boat in Ha Long Bay'],
  },
  {
    owner: 'theo',
    place: 'Cape Town, South Africa',
    latitude: -33.9249,
    longitude: 18.4241,
    itinerary: [
      'Hike Table Mountain via Platteklip Gorge',
      'Drive Chapman’s Peak to the Cape of Good Hope',
      'Penguins at Boulders Beach',
    ],
  },
  {
    owner: 'lena',
    place: 'Banff, Canada',
    latitude: 51.1784,
    longitude: -115.5708,
    itinerary: ['Sunrise canoe on Moraine Lake', 'Icefields Parkway to Jasper', 'Hot springs'],
  },
];

export interface DemoConversation {
  between: readonly [UserKey, UserKey];
  /** Who says what, in order. */
  messages: readonly (readonly [UserKey, string])[];
}

export const CONVERSATIONS: readonly DemoConversation[] = [
  {
    between: ['maya', 'theo'],
    messages: [
      ['maya', 'Your Patagonia photos are unreal. Was the 2 am start worth it?'],
      ['theo', 'Completely. Fitz Roy at sunrise is the best thing I have ever seen.'],
      ['maya', 'Okay, I am adding it to my list. When is the best time to go?'],
      ['theo', 'January or February. Bring layers, the wind never stops.'],
      ['maya', 'Want to plan Lisbon together in the spring? Sintra is on my itinerary.'],
      ['theo', 'Yes! I will look at flights for April.'],
    ],
  },
  {
    between: ['lena', 'maya'],
    messages: [
      ['lena', 'Bergen or Flåm, if I only have a long weekend?'],
      ['maya', 'Flåm. Take the railway down and kayak the fjord the next morning.'],
      ['lena', 'Perfect, booking it. See you at the Iceland slideshow on Friday?'],
      ['maya', 'Wouldn’t miss it.'],
    ],
  },
];
