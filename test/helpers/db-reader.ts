// Reads a service's tables behind its back, on whichever store it runs (the SQLite file, or its PostgreSQL schema), so
// tests can check that a refused request wrote nothing. SQL here must be valid in both dialects.
import Database from "better-sqlite3";
import pg from "pg";
import type { Config } from "../../src/config.ts";
import { attachSessionLog } from "../../src/store/sqlite/session-log-file.ts";

export interface DbReader {
  all(sql: string): Promise<Record<string, unknown>[]>;
  /** The first row's first column, as a number (counts, max seq). */
  number(sql: string): Promise<number>;
  close(): Promise<void>;
}

export async function openDbReader(config: Config): Promise<DbReader> {
  if (!config.databaseUrl) {
    const db = new Database(config.dbFile, { readonly: true, fileMustExist: true });
    attachSessionLog(db, config.dbFile);
    return {
      all: async (sql) => db.prepare(sql).all() as Record<string, unknown>[],
      number: async (sql) => Number(db.prepare(sql).pluck().get()),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client(config.databaseUrl);
  await client.connect();
  // One query at a time: a pg client given a second while the first runs queues it with a deprecation (an error in pg 9).
  let last: Promise<unknown> = Promise.resolve();
  const all = (sql: string): Promise<Record<string, unknown>[]> => {
    const rows = last.then(() => client.query(sql)).then((r) => r.rows as Record<string, unknown>[]);
    last = rows.catch(() => undefined);
    return rows;
  };
  return {
    all,
    number: async (sql) => Number(Object.values((await all(sql))[0] ?? {})[0]),
    close: () => client.end(),
  };
}
