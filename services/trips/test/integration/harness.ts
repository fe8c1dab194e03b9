import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { IdentityHeaders, type Trip } from '@wayfarer/contracts';
import { groupId, loadConfig } from '@wayfarer/service-kit';
import {
  dropBucket,
  dropConsumerGroups,
  dropMongoDatabase,
  multipartBody,
  testServiceEnv,
  throughGateway,
  uniqueSuffix,
  type FormFile,
} from '@wayfarer/test-kit';
import { TripsEnv } from '../../src/config';
import {
  ERASURE_CONSUMER,
  FRIENDSHIP_CONSUMER,
  JOURNAL_STORIES_CONSUMER,
} from '../../src/events/consumers';
import { createService, type TripsService, type TripsServiceOptions } from '../../src/service';

export type Harness = TripsService & { bucket: string; env: TripsEnv };

/**
 * trips booted by its composition root on a fresh MongoDB database and a fresh bucket for this
 * test file, with its own consumer group (joined before this resolves, reading only what is
 * published from now on). `close()` also drops the database, the bucket and the group; `env`
 * boots another instance on the same ones (`createService`). `app`
 * is called as the gateway calls it (test-kit `throughGateway`: the identity `as(userId)` names
 * comes with a valid identity proof); over real HTTP use test-kit's `gatewayHeaders`.
 */
export async function startTrips(
  options: Omit<TripsServiceOptions, 'skipHistory'> = {},
  /** More env (e.g. where the export's other areas are asked). */
  extraEnv: Record<string, string> = {},
): Promise<Harness> {
  const suffix = uniqueSuffix();
  const bucket = `t-photos-${suffix}`;
  const env = loadConfig(
    TripsEnv,
    testServiceEnv({ MONGO_DB: `t_trips_${suffix}`, PHOTO_BUCKET: bucket, ...extraEnv }),
  );
  const svc = await createService(env, { ...options, skipHistory: true });
  const close = async () => {
    await svc.close();
    // a join still in progress (Kafka slow) leaves the group by itself once done
    await svc.consumer.started;
    await svc.stories.started;
    await svc.erasure.consumer.started;
    await dropConsumerGroups([
      groupId(env, FRIENDSHIP_CONSUMER),
      groupId(env, JOURNAL_STORIES_CONSUMER),
      groupId(env, ERASURE_CONSUMER),
    ]);
    await dropMongoDatabase(env.MONGO_DB);
    await dropBucket(bucket);
  };
  try {
    await svc.consumer.started;
    await svc.stories.started;
    await svc.erasure.consumer.started;
  } catch (err) {
    await close();
    throw err;
  }
  return { ...svc, app: throughGateway(svc.app), bucket, env, close };
}

/** The identity header of a signed-in user (`h.app` adds the gateway's proof of it). */
export function as(userId: string): Record<string, string> {
  return { [IdentityHeaders.userId]: userId };
}

export const newUserId = (): string => crypto.randomUUID();

export type FilePart = FormFile;

/** A trip form body (see test-kit's `multipartBody`); files are named `photo.bin` by default. */
export function multipart(
  fields: [string, string][] | Record<string, string>,
  files: FilePart[] = [],
) {
  return multipartBody(
    fields,
    files.map((f) => ({ ...f, filename: f.filename ?? 'photo.bin' })),
  );
}

export interface DestinationFields {
  name: string;
  latitude: string;
  longitude: string;
  startDate?: string;
  endDate?: string;
  story?: string;
}

/**
 * The text fields of a trip form, named exactly as the spec's client names them; like it, the
 * trip's own fields are always sent (empty when not given).
 */
export function tripFields(
  trip: { name?: string; startDate?: string; endDate?: string },
  destinations: DestinationFields[],
): [string, string][] {
  const fields: [string, string][] = [];
  for (const key of ['name', 'startDate', 'endDate'] as const) fields.push([key, trip[key] ?? '']);
  destinations.forEach((d, i) => {
    for (const [key, value] of Object.entries(d)) {
      if (value !== undefined) fields.push([`destinations[${i}][${key}]`, value]);
    }
  });
  return fields;
}

export async function postTrip(
  app: FastifyInstance,
  userId: string,
  fields: [string, string][] | Record<string, string>,
  files: FilePart[] = [],
): Promise<LightMyRequestResponse> {
  const body = await multipart(fields, files);
  return app.inject({
    method: 'POST',
    url: '/api/trips',
    payload: body.payload,
    headers: { ...body.headers, ...as(userId) },
  });
}

/**
 * Creates a small valid trip (one destination, one PNG), waits for its display variant and
 * returns the trip as answered then (plain photo URLs).
 */
export async function createSimpleTrip(
  h: Harness,
  userId: string,
  image: Buffer,
  name = 'Weekend',
): Promise<Trip> {
  const res = await postTrip(
    h.app,
    userId,
    tripFields({ name }, [{ name: 'Oslo', latitude: '59.91', longitude: '10.75' }]),
    [{ field: 'photos[0]', data: image, filename: 'a.png', type: 'image/png' }],
  );
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  await h.variants.idle();
  const created = await h.app.inject({
    url: `/api/trips/${res.json<Trip>()._id}`,
    headers: as(userId),
  });
  return created.json<Trip>();
}
