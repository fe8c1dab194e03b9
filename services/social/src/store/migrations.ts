import {
  outboxMigrations,
  processedEventsMigrations,
  type Migration,
} from '@wayfarer/service-kit/pg';

/** social's schema, in order. Never edit a released migration: add a new one. */
export const migrations: readonly Migration[] = [
  ...outboxMigrations,
  ...processedEventsMigrations,
  {
    id: '001_social',
    sql: `
      -- users as auth announced them (auth.user.v1); search_key is the name without case or
      -- accents (domain/search.ts), what search compares
      CREATE TABLE users (
        id          text PRIMARY KEY,
        name        text NOT NULL,
        search_key  text NOT NULL,
        picture     text NOT NULL
      );

      -- a pending request from one user to another; answered requests are deleted
      CREATE TABLE friend_requests (
        to_id       text NOT NULL,
        from_id     text NOT NULL,
        id          uuid NOT NULL UNIQUE,
        created_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (to_id, from_id),
        CHECK (from_id <> to_id)
      );
      CREATE INDEX friend_requests_from ON friend_requests (from_id);

      -- a friendship is two rows, one per side, so each user's friends are one index range
      CREATE TABLE friendships (
        user_id     text NOT NULL,
        friend_id   text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, friend_id),
        CHECK (user_id <> friend_id)
      );

      -- trips as friends see them (trips.trip.v1): doc is the FriendTrip JSON answered as it is
      -- stored (json keeps its text: nothing to re-encode); a deleted trip stays as a
      -- tombstone (doc NULL) so a late or replayed trip.created cannot bring it back
      CREATE TABLE trips (
        id          text PRIMARY KEY,
        owner_id    text NOT NULL,
        created_at  timestamptz NOT NULL,
        deleted     boolean NOT NULL DEFAULT false,
        doc         json,
        CHECK (deleted OR doc IS NOT NULL)
      );
      CREATE INDEX trips_owner ON trips (owner_id, created_at DESC, id) WHERE NOT deleted;
    `,
  },
];
