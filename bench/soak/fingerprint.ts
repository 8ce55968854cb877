// What a rejected request must not change: the rows requests write (documents, chunks, audit events, records, tokens,
// sessions, forgets), read by a second connection to the service's store, SQLite file or PostgreSQL. Session event
// streams are left out: a run started earlier keeps appending to its own log after its request was answered.
import Database from "better-sqlite3";
import pg from "pg";
import { attachSessionLog } from "../../src/store/sqlite/session-log-file.ts";

const QUERY = `SELECT
  (SELECT count(*) FROM documents) || '/' || (SELECT coalesce(max(id), 0) FROM chunks) || '/' || (SELECT coalesce(max(seq), 0) FROM events)
  || '/' || (SELECT coalesce(max(seq), 0) FROM records) || '/' || (SELECT count(*) FROM tokens) || '/' || (SELECT count(*) FROM sessions)
  || '/' || (SELECT count(*) FROM forgotten) AS f`;

export interface StoreReader {
  fingerprint(): Promise<string>;
  /** Every text column of every table but the tokens' (which hold hashes), as one text per table. */
  texts(): Promise<[table: string, text: string][]>;
  close(): Promise<void>;
}

/** The memory file and, attached, its session log's file (src/store/sqlite/session-log-file.ts). */
export function sqliteReader(dbFile: string): StoreReader {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  attachSessionLog(db, dbFile);
  const stmt = db.prepare(QUERY);
  const tables = db.prepare(
    `SELECT 'main' AS schema, name FROM main.sqlite_master WHERE type = 'table' AND name <> 'tokens'
     UNION ALL SELECT 'session_log', name FROM session_log.sqlite_master WHERE type = 'table'`,
  );
  return {
    fingerprint: async () => (stmt.get() as { f: string }).f,
    texts: async () =>
      (tables.all() as { schema: string; name: string }[]).flatMap(({ schema, name }) => {
        const cols = (
          db.prepare("SELECT name FROM pragma_table_info(?, ?) WHERE type = 'TEXT'").all(name, schema) as {
            name: string;
          }[]
        ).map((c) => `coalesce("${c.name}", '')`);
        return cols.length
          ? [
              [
                name,
                (
                  db.prepare(`SELECT ${cols.join(" || ' ' || ")} AS v FROM "${schema}"."${name}"`).all() as {
                    v: string;
                  }[]
                )
                  .map((r) => r.v)
                  .join("\n"),
              ] as [string, string],
            ]
          : [];
      }),
    close: async () => void db.close(),
  };
}

export async function postgresReader(url: string): Promise<StoreReader> {
  const client = new pg.Client(url);
  await client.connect();
  return {
    fingerprint: async () => ((await client.query(QUERY)).rows[0] as { f: string }).f,
    texts: async () => {
      const cols = (
        await client.query(
          "SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND data_type IN ('text', 'jsonb') AND table_name <> 'tokens'",
        )
      ).rows as { t: string; c: string }[];
      const out: [string, string][] = [];
      for (const t of new Set(cols.map((r) => r.t))) {
        const list = cols.filter((r) => r.t === t).map((r) => `coalesce("${r.c}"::text, '')`);
        out.push([
          t,
          ((await client.query(`SELECT ${list.join(" || ' ' || ")} AS v FROM "${t}"`)).rows as { v: string }[])
            .map((r) => r.v)
            .join("\n"),
        ]);
      }
      return out;
    },
    close: () => client.end(),
  };
}
