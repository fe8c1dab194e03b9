import { pathToFileURL } from 'node:url';
import {
  CHAT_SOCKET_PATH,
  ChatEvents,
  ChatMessages,
  roomIdOf,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { io, type Socket } from 'socket.io-client';
import {
  BUCKET_LIST,
  CONVERSATIONS,
  DEMO_PASSWORD,
  FRIENDSHIPS,
  TRIPS,
  USERS,
  type DemoTrip,
  type UserKey,
} from './data';
import { avatarPng, landscapeJpeg, seedOf } from './images';

/**
 * Seeds demo data into a running Wayfarer through its public API only (the gateway), so every
 * rule a user meets applies: users (registered with a generated avatar, or logged in when the
 * email is taken), friendships, trips with generated photos, journals, bucket lists with
 * itineraries and conversations over the chat socket. Safe to run again: what exists (an
 * account, a friendship, a trip of the same name, a bucket list place, a conversation with
 * messages) is kept and not made twice.
 *
 *   npm run demo:seed [-- <gateway URL>]     (or WAYFARER_URL; default http://localhost:8080)
 */

export interface SeedReport {
  users: { name: string; email: string; id: string; created: boolean }[];
  password: string;
  friendships: { made: number; existing: number };
  trips: { made: string[]; existing: string[]; photos: number };
  journals: number;
  bucketList: { made: string[]; existing: string[] };
  conversations: { room: string; sent: number; existing: boolean }[];
}

interface Session {
  key: UserKey;
  id: string;
  cookie: string;
}

/** How long the seed waits for the services to learn what others published (events). */
const EVENTUAL_MS = 30_000;

/** Retries `attempt` until it returns a value (not undefined) or `timeoutMs` passes. */
async function eventually<T>(
  what: string,
  attempt: () => Promise<T | undefined>,
  timeoutMs = EVENTUAL_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let delay = 100;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(1000, delay * 2);
  }
}

class Gateway {
  constructor(readonly baseUrl: string) {}

  fetch(path: string, session?: Session, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (session) headers.set('cookie', session.cookie);
    return fetch(`${this.baseUrl}${path}`, { ...init, headers });
  }

  async json<T>(path: string, session?: Session, init: RequestInit = {}): Promise<T> {
    const res = await this.fetch(path, session, init);
    if (!res.ok)
      throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  post(path: string, session: Session, body: unknown): Promise<Response> {
    return this.fetch(path, session, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }
}

function sessionCookie(res: Response): string {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith('wayfarer_session='));
  if (!raw) throw new Error('no session cookie in the answer');
  return raw.split(';', 1)[0]!;
}

async function signIn(
  gw: Gateway,
  user: (typeof USERS)[number],
): Promise<{ session: Session; created: boolean }> {
  const form = new FormData();
  form.append('name', user.name);
  form.append('email', user.email);
  form.append('password', DEMO_PASSWORD);
  const avatar = await avatarPng(user.avatar);
  form.append(
    'profilePicture',
    new Blob([new Uint8Array(avatar)], { type: 'image/png' }),
    'avatar.png',
  );
  const reg = await gw.fetch('/api/register', undefined, { method: 'POST', body: form });
  if (reg.status === 201) {
    const { userId } = (await reg.json()) as { userId: string };
    return { session: { key: user.key, id: userId, cookie: sessionCookie(reg) }, created: true };
  }
  if (reg.status !== 409)
    throw new Error(`register ${user.email}: ${reg.status} ${await reg.text()}`);
  const login = await gw.fetch('/api/login', undefined, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: DEMO_PASSWORD }),
  });
  if (login.status !== 200) {
    throw new Error(`log in ${user.email}: ${login.status} ${await login.text()}`);
  }
  const { user: who } = (await login.json()) as { user: { id: string } };
  return { session: { key: user.key, id: who.id, cookie: sessionCookie(login) }, created: false };
}

/** Makes `a` and `b` friends: `a` asks, `b` accepts. Returns false when they already were. */
async function befriend(gw: Gateway, a: Session, b: Session): Promise<boolean> {
  const friends = await gw.json<{ id: string }[]>('/api/friends', a);
  if (friends.some((f) => f.id === b.id)) return false;
  // social learns new users from auth's events: 404 until then
  const asked = await eventually(`${a.key} to ask ${b.key}`, async () => {
    const res = await gw.fetch(`/api/add-friend/${b.id}`, a, { method: 'POST' });
    if (res.status === 404) return undefined;
    if (res.status === 409) return 'friends';
    if (res.status !== 200) throw new Error(`add-friend: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { status: string }).status;
  });
  if (asked === 'friends') return true;
  const res = await gw.fetch(`/api/acceptFriend/${a.id}`, b, { method: 'POST' });
  if (res.status !== 200) throw new Error(`acceptFriend: ${res.status} ${await res.text()}`);
  return true;
}

interface TripAnswer {
  _id: string;
  name: string;
  destinations: { _id: string; name: string; photos: string[] }[];
}

async function createTrip(gw: Gateway, owner: Session, trip: DemoTrip): Promise<number> {
  const form = new FormData();
  form.append('name', trip.name);
  form.append('startDate', trip.destinations[0]?.startDate ?? '');
  form.append('endDate', trip.destinations.at(-1)?.endDate ?? '');
  let photos = 0;
  for (const [i, d] of trip.destinations.entries()) {
    form.append(`destinations[${i}][name]`, d.name);
    form.append(`destinations[${i}][startDate]`, d.startDate);
    form.append(`destinations[${i}][endDate]`, d.endDate);
    form.append(`destinations[${i}][latitude]`, String(d.latitude));
    form.append(`destinations[${i}][longitude]`, String(d.longitude));
    form.append(`destinations[${i}][story]`, d.story);
    for (let p = 0; p < d.photos; p++) {
      const jpeg = await landscapeJpeg(d.scene, seedOf(`${d.name} ${p}`));
      const file = `${d.name.split(',')[0]!.toLowerCase().replace(/\W+/g, '-')}-${p + 1}.jpg`;
      form.append(`photos[${i}]`, new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), file);
      photos++;
    }
  }
  const res = await gw.fetch('/api/trips', owner, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`trip ${trip.name}: ${res.status} ${await res.text()}`);
  return photos;
}

/** Saves each destination's journal (journal learns the owner from trips' events: 404 first). */
async function writeJournals(gw: Gateway, owner: Session, trip: DemoTrip, saved: TripAnswer) {
  let n = 0;
  for (const d of trip.destinations) {
    const dest = saved.destinations.find((x) => x.name === d.name);
    if (!dest) continue;
    await eventually(`the journal of ${d.name}`, async () => {
      const res = await gw.post('/api/journal', owner, {
        destinationId: dest._id,
        content: d.journal,
        date: `${d.endDate}T20:00:00.000Z`,
      });
      if (res.status === 404) return undefined;
      if (res.status !== 200)
        throw new Error(`journal ${d.name}: ${res.status} ${await res.text()}`);
      return true;
    });
    n++;
  }
  return n;
}

function connectChat(gw: Gateway, session: Session): Promise<Socket> {
  const socket = io(gw.baseUrl, {
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    extraHeaders: { cookie: session.cookie, origin: new URL(gw.baseUrl).origin },
    reconnection: false,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err: Error) => {
      socket.close();
      reject(new Error(`chat socket of ${session.key}: ${err.message}`));
    });
  });
}

/** Sends one message, waiting and trying again while the socket's rate limit refuses it. */
async function send(socket: Socket, to: string, text: string): Promise<void> {
  await eventually(`sending "${text}"`, async () => {
    const ack = (await socket
      .timeout(10_000)
      .emitWithAck(ChatEvents.sendMessage, { to, text, timestamp: Date.now() })) as SendMessageAck;
    if (ack.ok) return true;
    if (ack.error === ChatMessages.rateLimited) return undefined;
    throw new Error(`send_message: ${ack.error}`);
  });
}

export async function seedDemo(
  baseUrl: string,
  log: (line: string) => void = () => {},
): Promise<SeedReport> {
  const gw = new Gateway(baseUrl.replace(/\/+$/, ''));
  const report: SeedReport = {
    users: [],
    password: DEMO_PASSWORD,
    friendships: { made: 0, existing: 0 },
    trips: { made: [], existing: [], photos: 0 },
    journals: 0,
    bucketList: { made: [], existing: [] },
    conversations: [],
  };

  const sessions = new Map<UserKey, Session>();
  for (const user of USERS) {
    const { session, created } = await signIn(gw, user);
    sessions.set(user.key, session);
    report.users.push({ name: user.name, email: user.email, id: session.id, created });
    log(`${created ? 'registered' : 'logged in'} ${user.name} <${user.email}>`);
  }
  const as = (key: UserKey) => sessions.get(key)!;

  for (const [a, b] of FRIENDSHIPS) {
    if (await befriend(gw, as(a), as(b))) report.friendships.made++;
    else report.friendships.existing++;
  }
  log(`friendships: ${report.friendships.made} made, ${report.friendships.existing} existing`);

  for (const trip of TRIPS) {
    const owner = as(trip.owner);
    const mine = await gw.json<TripAnswer[]>('/api/mytrips', owner);
    if (mine.some((t) => t.name === trip.name)) {
      report.trips.existing.push(trip.name);
    } else {
      report.trips.photos += await createTrip(gw, owner, trip);
      report.trips.made.push(trip.name);
      log(`trip "${trip.name}" (${trip.owner})`);
    }
    const saved = (await gw.json<TripAnswer[]>('/api/mytrips', owner)).find(
      (t) => t.name === trip.name,
    )!;
    report.journals += await writeJournals(gw, owner, trip, saved);
  }
  log(`journals saved: ${report.journals}`);

  for (const item of BUCKET_LIST) {
    const owner = as(item.owner);
    const list = await gw.json<{ _id: string; place: string }[]>('/api/bucketlist', owner);
    let id = list.find((x) => x.place === item.place)?._id;
    if (id) report.bucketList.existing.push(item.place);
    else {
      const { data } = await gw.json<{ data: { _id: string } }>('/api/bucketlist', owner, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          place: item.place,
          latitude: item.latitude,
          longitude: item.longitude,
          isVisited: false,
        }),
      });
      id = data._id;
      report.bucketList.made.push(item.place);
    }
    const res = await gw.post('/api/itinerary', owner, {
      bucketListId: id,
      itinerary: item.itinerary,
    });
    if (res.status !== 200) throw new Error(`itinerary: ${res.status} ${await res.text()}`);
  }
  log(`bucket list: ${report.bucketList.made.length} places added, itineraries saved`);

  const sockets = new Map<UserKey, Socket>();
  try {
    for (const talk of CONVERSATIONS) {
      const [a, b] = talk.between.map(as) as [Session, Session];
      const room = roomIdOf(a.id, b.id);
      // chat learns the friendship from social's events: 403 until then
      const history = await eventually(
        `chat to know ${a.key} and ${b.key} are friends`,
        async () => {
          const res = await gw.fetch(`/api/conversation/${room}?limit=1`, a);
          if (res.status === 403) return undefined;
          if (res.status !== 200) throw new Error(`conversation: ${res.status}`);
          return (await res.json()) as { conversation: { messages: unknown[] } };
        },
      );
      if (history.conversation.messages.length > 0) {
        report.conversations.push({ room, sent: 0, existing: true });
        continue;
      }
      for (const [from, text] of talk.messages) {
        let socket = sockets.get(from);
        if (!socket) {
          socket = await connectChat(gw, as(from));
          sockets.set(from, socket);
        }
        await send(socket, (from === a.key ? b : a).id, text);
      }
      report.conversations.push({ room, sent: talk.messages.length, existing: false });
      log(`conversation ${talk.between.join(' & ')}: ${talk.messages.length} messages`);
    }
  } finally {
    for (const socket of sockets.values()) socket.close();
  }
  return report;
}

async function main() {
  const baseUrl = process.argv[2] ?? process.env.WAYFARER_URL ?? 'http://localhost:8080';
  console.log(`Seeding demo data into ${baseUrl}`);
  const report = await seedDemo(baseUrl, (line) => console.log(`  ${line}`));
  console.log(
    `Done: ${report.trips.made.length} trips made (${report.trips.photos} photos), ` +
      `${report.trips.existing.length} already there; ${report.journals} journals; ` +
      `${report.conversations.reduce((s, c) => s + c.sent, 0)} messages sent.`,
  );
  console.log('\nDemo users (password for all: "' + report.password + '"):');
  for (const u of report.users) console.log(`  ${u.name.padEnd(16)} ${u.email}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    const cause =
      err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
    console.error(`Seeding failed: ${err instanceof Error ? err.message : String(err)}${cause}`);
    if (cause) console.error('Is Wayfarer running there (npm start)?');
    process.exit(1);
  });
}
