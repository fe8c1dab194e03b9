import {
  idempotencyMigrations,
  pgServiceMigrations,
  type Migration,
} from '@wayfarer/service-kit/pg';

/** social's schema, in order. Never edit a released migration: add a new one. */
export const migrations: readonly Migration[] = [
  ...pgServiceMigrations,
  // the keys of POST /api/add-friend/{id} (service-kit idempotent creates)
  ...idempotencyMigrations,
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
  {
    id: '002_trip_summary',
    sql: `
      -- the friends list's trip (contracts' FriendTrip: each destination with at most its first
      -- photo), made at event time so GET /api/friends joins stored text; doc keeps every photo
      -- for GET /api/friends/:friendId/destinations/:destinationId
      ALTER TABLE trips ADD COLUMN summary json;
      UPDATE trips t
         SET summary = json_build_object(
               '_id', t.doc->'_id', 'name', t.doc->'name',
               'startDate', t.doc->'startDate', 'endDate', t.doc->'endDate',
               'destinations', coalesce(
                 (SELECT json_agg(json_build_object(
                           '_id', d->'_id', 'name', d->'name',
                           'latitude', d->'latitude', 'longitude', d->'longitude',
                           'startDate', d->'startDate', 'endDate', d->'endDate',
                           'photos', CASE WHEN json_array_length(d->'photos') > 0
                                          THEN json_build_array(d->'photos'->0)
                                          ELSE '[]'::json END,
                           'story', d->'story') ORDER BY n)
                    FROM json_array_elements(t.doc->'destinations') WITH ORDINALITY AS x(d, n)),
                 '[]'::json))
       WHERE t.doc IS NOT NULL;
      ALTER TABLE trips ADD CONSTRAINT trips_summary CHECK (deleted OR summary IS NOT NULL);
    `,
  },
  {
    id: '003_trip_summary_without_story',
    sql: `
      -- the list's destinations no longer carry the story's preview (contracts' FriendDestination):
      -- it is read with the destination's photos when a pin opens
      UPDATE trips t
         SET summary = json_build_object(
               '_id', t.summary->'_id', 'name', t.summary->'name',
               'startDate', t.summary->'startDate', 'endDate', t.summary->'endDate',
               'destinations', coalesce(
                 (SELECT json_agg((d::jsonb - 'story')::json ORDER BY n)
                    FROM json_array_elements(t.summary->'destinations') WITH ORDINALITY AS x(d, n)),
                 '[]'::json))
       WHERE t.summary IS NOT NULL;
    `,
  },
  {
    id: '004_friends_changed_notify',
    sql: `
      -- the friends cache (store/friends-cache.ts) hears of every change that may alter a page
      -- of GET /api/friends: each row written names a user on channel social_friends_changed,
      -- delivered at commit, identical ones of a transaction folded into one. A users row is a
      -- friend's name and picture, a trips row a friend's trip (its owner), a friendships row
      -- the friends of its user_id (both rows of a pair exist, so both sides are named).
      -- Whatever writes (consumers, routes, SQL by hand), the cache hears of it.
      CREATE FUNCTION social_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('social_friends_changed', OLD.id); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('social_friends_changed', NEW.id); END IF;
        RETURN NULL;
      END $$;
      CREATE FUNCTION social_trip_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('social_friends_changed', OLD.owner_id); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('social_friends_changed', NEW.owner_id); END IF;
        RETURN NULL;
      END $$;
      CREATE FUNCTION social_friendship_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('social_friends_changed', OLD.user_id); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('social_friends_changed', NEW.user_id); END IF;
        RETURN NULL;
      END $$;
      -- TRUNCATE names nobody: the empty payload drops every page
      CREATE FUNCTION social_everyone_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('social_friends_changed', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER users_friends_changed AFTER INSERT OR UPDATE OR DELETE ON users
        FOR EACH ROW EXECUTE FUNCTION social_user_changed();
      CREATE TRIGGER trips_friends_changed AFTER INSERT OR UPDATE OR DELETE ON trips
        FOR EACH ROW EXECUTE FUNCTION social_trip_changed();
      CREATE TRIGGER friendships_friends_changed AFTER INSERT OR UPDATE OR DELETE ON friendships
        FOR EACH ROW EXECUTE FUNCTION social_friendship_changed();
      CREATE TRIGGER users_truncated AFTER TRUNCATE ON users
        FOR EACH STATEMENT EXECUTE FUNCTION social_everyone_changed();
      CREATE TRIGGER trips_truncated AFTER TRUNCATE ON trips
        FOR EACH STATEMENT EXECUTE FUNCTION social_everyone_changed();
      CREATE TRIGGER friendships_truncated AFTER TRUNCATE ON friendships
        FOR EACH STATEMENT EXECUTE FUNCTION social_everyone_changed();
    `,
  },
  {
    id: '005_trip_version',
    sql: `
      -- the trip's version (trips.trip.v1: 1 when created, one more with each trip.updated), so
      -- an older update arriving after a newer one changes nothing
      ALTER TABLE trips ADD COLUMN version integer NOT NULL DEFAULT 1;
    `,
  },
  {
    id: '006_trip_visibility_feed',
    sql: `
      -- who may see a trip (trips' events: contracts' TripVisibility, absent = friends), and the
      -- feed's index (GET /api/feed): each friend's shared trips newest first, so a
      -- page merges one short index range per friend
      ALTER TABLE trips ADD COLUMN visibility text NOT NULL DEFAULT 'friends'
        CHECK (visibility IN ('friends', 'private'));
      CREATE INDEX trips_feed ON trips (owner_id, created_at DESC, id DESC)
        WHERE NOT deleted AND visibility = 'friends';
    `,
  },
  {
    id: '007_trips_for_friends',
    sql: `
      -- the one rule of who besides its owner sees a trip, in one place. Every read
      -- that shows a user's trips to someone else (GET /api/friends, the friend's destination,
      -- the feed, accept's newFriend) reads this view, never the table: a deleted trip
      -- (tombstone) or a private one is nobody else's. Who is a friend is each read's join on
      -- friendships. A plain view: PostgreSQL inlines it, so the reads keep their indexes
      -- (trips_owner, and trips_feed whose predicate is this one).
      CREATE VIEW trips_for_friends AS
        SELECT id, owner_id, created_at, doc, summary, version
          FROM trips
         WHERE NOT deleted AND visibility = 'friends';
    `,
  },
  {
    id: '008_destination_countries',
    sql: `
      -- each destination's country code (ISO 3166-1 alpha-2, or null at open sea), a
      -- JSON array in the order of doc's destinations, found by the atlas when the trip's event
      -- is applied (same statement as doc and summary), so GET /api/stats never looks a point up.
      -- Rows older than this are filled at start (store/stats.ts backfillCountries: the lookup
      -- is JavaScript). The view gains the column (a view may grow at its end).
      ALTER TABLE trips ADD COLUMN countries json;
      CREATE OR REPLACE VIEW trips_for_friends AS
        SELECT id, owner_id, created_at, doc, summary, version, countries
          FROM trips
         WHERE NOT deleted AND visibility = 'friends';
    `,
  },
];
