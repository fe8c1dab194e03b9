import type { Db } from 'mongodb';

/** Anything that runs a PostgreSQL query: a pool or a client. */
export interface Queryable {
  query<R extends object>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * The tables of a PostgreSQL database holding any of `texts` in a row (the row as text): an
 * erasure test's generic scan, whatever the schema. Names are `schema.table`.
 */
export async function tablesHolding(db: Queryable, texts: readonly string[]): Promise<string[]> {
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name
       FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = await db.query(
      `SELECT 1 FROM ${name} t
        WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) x WHERE strpos(t::text, x) > 0)
        LIMIT 1`,
      [texts],
    );
    if (rows.length > 0) found.push(name);
  }
  return found;
}

/** The collections of a MongoDB database holding any of `texts` in a document (as JSON). */
export async function collectionsHolding(db: Db, texts: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    for await (const doc of db.collection(name).find({})) {
      const json = JSON.stringify(doc);
      if (texts.some((t) => json.includes(t))) {
        found.push(name);
        break;
      }
    }
  }
  return found;
}
