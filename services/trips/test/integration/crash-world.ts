import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll } from 'vitest';
import { ObjectStore } from '@wayfarer/storage';
import { testInfra } from '@wayfarer/test-kit';
import type { TripDoc } from '../../src/domain/trip';
import { cleanUp, processEnv, type TripsProcess } from './process';

/*
 * The world of a test that kills trips processes: their shared env (a spool directory of its
 * own, short leases), their MongoDB database and bucket seen from outside, and the processes
 * started (pushed to `procs`), all cleaned up after the file.
 */

export const procs: TripsProcess[] = [];
export let env: Record<string, string>;
export let spoolDir: string;
export let mongo: MongoClient;
export let photos: ObjectStore;

/** Sets the world up before the file's tests (`extraEnv`: its leases) and cleans it up after. */
export function useCrashWorld(spoolPrefix: string, extraEnv: Record<string, string>): void {
  beforeAll(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), spoolPrefix));
    env = await processEnv({ SPOOL_DIR: spoolDir, ...extraEnv });
    mongo = await MongoClient.connect(testInfra().mongoUrl);
    photos = ObjectStore.connect({
      ...testInfra().s3,
      region: 'us-east-1',
      bucket: env.PHOTO_BUCKET!,
    });
  });
  afterAll(async () => {
    await mongo?.close();
    if (env) await cleanUp(env, procs);
    if (spoolDir) await rm(spoolDir, { recursive: true, force: true });
  });
}

export const db = () => mongo.db(env.MONGO_DB);
export const tripDocs = () => db().collection<TripDoc>('trips').find({}).toArray();
