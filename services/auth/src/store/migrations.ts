import { outboxMigrations, type Migration } from '@wayfarer/service-kit/pg';

/** auth's schema, in order. Never edit a released migration: add a new one. */
export const migrations: readonly Migration[] = [
  ...outboxMigrations,
  {
    id: '001_users',
    sql: `
      CREATE TABLE users (
        id            uuid PRIMARY KEY,
        name          text NOT NULL,
        email         text NOT NULL CHECK (email = lower(email)),
        password_hash text NOT NULL,
        avatar_key    text,
        created_at    timestamptz NOT NULL DEFAULT now()
      );
      -- one account per email, whatever its case
      CREATE UNIQUE INDEX users_email_unique ON users (lower(email));
    `,
  },
  {
    id: '002_revoked_sessions',
    sql: `
      -- the durable record of logouts; Redis's session:revoked:<jti> is synced from it
      CREATE TABLE revoked_sessions (
        jti        text PRIMARY KEY,
        expires_at timestamptz NOT NULL,
        synced     boolean NOT NULL DEFAULT false,
        revoked_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX revoked_sessions_expires ON revoked_sessions (expires_at);
      CREATE INDEX revoked_sessions_unsynced ON revoked_sessions (jti) WHERE NOT synced;
    `,
  },
  {
    id: '003_sessions',
    sql: `
      -- the sessions auth signed, so a password change or a closed account can revoke every
      -- session of a user (revoked ones move to revoked_sessions, which names no user); rows
      -- are pruned once expired. Sessions signed before this table existed are not listed.
      CREATE TABLE sessions (
        jti        text PRIMARY KEY,
        user_id    uuid NOT NULL,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX sessions_user ON sessions (user_id);
      CREATE INDEX sessions_expires ON sessions (expires_at);
    `,
  },
];
