import {
  idempotencyMigrations,
  pgServiceMigrations,
  type Migration,
} from '@wayfarer/service-kit/pg';

/** bucketlist's schema, in order. Never edit a released migration: add a new one. */
export const migrations: readonly Migration[] = [
  ...pgServiceMigrations,
  // the keys of POST /api/bucketlist (service-kit idempotent creates)
  ...idempotencyMigrations,
  {
    id: '001_bucket_items',
    sql: `
      -- a visited item is kept (visited_at set), never deleted: the traveller's history
      CREATE TABLE bucket_items (
        id                uuid PRIMARY KEY,
        owner_id          text NOT NULL,
        place             text NOT NULL,
        latitude          double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
        longitude         double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
        description       text,
        itinerary         text[] NOT NULL DEFAULT '{}',
        created_at        timestamptz NOT NULL DEFAULT now(),
        visited_at        timestamptz,
        visited_trip_id   text,
        visited_trip_name text,
        CHECK (visited_trip_id IS NULL OR visited_at IS NOT NULL)
      );
      CREATE INDEX bucket_items_owner ON bucket_items (owner_id, created_at, id);
      -- what a trip event looks at: the owner's unvisited places
      CREATE INDEX bucket_items_unvisited ON bucket_items (owner_id) WHERE visited_at IS NULL;
    `,
  },
];
