import { MongoClient, type Db } from 'mongodb';

/**
 * Connects to a MongoDB-wire server (MongoDB 7, or mongo-java-server locally) and returns the
 * client and db.
 */
export async function connectMongo(
  url: string,
  dbName: string,
): Promise<{ client: MongoClient; db: Db }> {
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: 5000,
    connectTimeoutMS: 5000,
    maxPoolSize: 20,
  });
  await client.connect();
  return { client, db: client.db(dbName) };
}

/** A readiness check for `createHttpApp`. */
export function mongoPing(db: Db): () => Promise<unknown> {
  return () => db.command({ ping: 1 });
}
