// Opens a SQLite file with the pragmas the service relies on and brings its schema up to date.
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

export type Db = Database.Database;

/** WAL + synchronous=NORMAL survives a killed process with every committed write (not a power cut: use SMRITI_SYNC=full). */
export function openDatabase(
  file: string,
  migrations: readonly string[],
  opts: { synchronous?: "normal" | "full" } = {},
): Db {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${opts.synchronous === "full" ? "FULL" : "NORMAL"}`);
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  migrate(db, migrations);
  return db;
}

function migrate(db: Db, migrations: readonly string[]): void {
  if ((db.pragma("user_version", { simple: true }) as number) >= migrations.length) return;
  // Re-read under the write lock: another process may have migrated meanwhile.
  db.transaction(() => {
    const version = db.pragma("user_version", { simple: true }) as number;
    for (let v = version; v < migrations.length; v++) db.exec(migrations[v]!);
    db.pragma(`user_version = ${migrations.length}`);
  }).immediate();
}
