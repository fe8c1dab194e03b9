import { pgServiceMigrations, type Migration } from '@wayfarer/service-kit/pg';

/** notifications' schema, in order. Never edit a released migration: add a new one. */
export const migrations: readonly Migration[] = [
  // outbox (unused: notifications publishes nothing; its relay prunes the consumer markers) and
  // processed_events (each event applied once, in the transaction of its effect)
  ...pgServiceMigrations,
  {
    id: '001_notifications',
    sql: `
      -- users as auth announced them (auth.user.v1): a notification's actor
      CREATE TABLE users (
        id       text PRIMARY KEY,
        name     text NOT NULL,
        picture  text NOT NULL
      );

      -- who is friends with whom (social.friendship.v1), two rows per pair: whom a trip tells
      CREATE TABLE friendships (
        user_id    text NOT NULL,
        friend_id  text NOT NULL,
        PRIMARY KEY (user_id, friend_id),
        CHECK (user_id <> friend_id)
      );

      -- one row per notification of a user; an event makes at most one per user (event_id)
      CREATE TABLE notifications (
        id          uuid PRIMARY KEY,
        user_id     text NOT NULL,
        kind        text NOT NULL,
        actor_id    text NOT NULL,
        subject     jsonb NOT NULL,
        created_at  timestamptz NOT NULL,
        read        boolean NOT NULL DEFAULT false,
        event_id    uuid NOT NULL,
        UNIQUE (event_id, user_id)
      );
      -- a user's pages newest first (keyset), and the bound of 500 per user
      CREATE INDEX notifications_page ON notifications (user_id, created_at DESC, id DESC);
      -- a user's unread count
      CREATE INDEX notifications_unread ON notifications (user_id, created_at) WHERE NOT read;
      -- erasure of what a user did
      CREATE INDEX notifications_actor ON notifications (actor_id);
      -- the 90-day bound
      CREATE INDEX notifications_age ON notifications (created_at);
      -- a trip deleted, made private or renamed
      CREATE INDEX notifications_trip ON notifications ((subject->>'tripId'))
        WHERE kind = 'friend_trip';
    `,
  },
];
