// The embedded default Store: SQLite (WAL), the memory in one file and the session log in another beside it (schema.ts
// says why). Calls are synchronous underneath and resolve at once.
import type { AppendNotices } from "../../ports/event-log.ts";
import type { Store } from "../../ports/store.ts";
import { openDatabase, type Db } from "./open.ts";
import { logMigrations, migrations } from "./schema.ts";
import { moveSessionTables, sessionLogFileOf } from "./session-log-file.ts";
import { WorkspaceRepo } from "./workspaces.ts";
import { DocumentRepo } from "./documents.ts";
import { AuditRepo } from "./events.ts";
import { EventLogRepo } from "./event-log.ts";
import { RecordRepo } from "./records.ts";
import { CognitiveRepo } from "./cognitive.ts";
import { SearchFeedRepo } from "./search-feed.ts";
import { SessionRepo } from "./sessions.ts";
import { SqliteTransactions } from "./transactions.ts";
import { startBackgroundCheckpoints } from "./checkpointer.ts";
import { SqliteWriter } from "./writer.ts";

export interface SqliteOptions {
  synchronous?: "normal" | "full";
  /** Long-running processes (the server) checkpoint the WAL from a worker thread instead of inside writes. */
  backgroundCheckpoints?: boolean;
  /** How this process hears of appends by the other processes of its group (a follower polls otherwise). */
  notices?: AppendNotices | undefined;
  /**
   * Document replaces and audit records commit on a writer thread (writer.ts); a file only, as a `:memory:` database
   * is per connection.
   */
  writerThread?: boolean;
}

/** Opens the memory file and its session log's file, which is named after it (session-log-file.ts). */
export function openSqliteStore(file: string, opts: SqliteOptions = {}): Store {
  const { db, log, logFile } = openFiles(file, opts);
  const onFile = file !== ":memory:";
  const background = opts.backgroundCheckpoints && onFile;
  const checkpointer = background
    ? startBackgroundCheckpoints([
        { db, file },
        { db: log, file: logFile },
      ])
    : null;
  const writer = opts.writerThread && onFile ? new SqliteWriter({ file, synchronous: opts.synchronous }) : null;
  return {
    ...sqliteRepos(db, log, { notices: opts.notices ?? null, writer }),
    async close() {
      await writer?.close();
      await checkpointer?.stop();
      db.close();
      log.close();
    },
  };
}

/** One repository per port over the two files; document replaces and audit appends go to the writer thread when given. */
export function sqliteRepos(db: Db, log: Db, opts: { notices: AppendNotices | null; writer: SqliteWriter | null }) {
  const feed = new SearchFeedRepo(db);
  const tx = new SqliteTransactions(db, feed);
  const documents = new DocumentRepo(db, tx, opts.writer);
  const records = new RecordRepo(db, tx);
  const audit = new AuditRepo(db, opts.writer);
  tx.join({ documents, audit });
  return {
    workspaces: new WorkspaceRepo(db),
    documents,
    audit,
    streams: new EventLogRepo(log, opts.notices),
    records,
    cognitive: new CognitiveRepo(db),
    feed,
    sessions: new SessionRepo(log),
  } satisfies Omit<Store, "close">;
}

/** Both files, schemas up to date, the session tables out of a memory file made before the split. */
export function openFiles(
  file: string,
  opts: Pick<SqliteOptions, "synchronous"> = {},
): { db: Db; log: Db; logFile: string } {
  const logFile = sessionLogFileOf(file);
  const log = openDatabase(logFile, logMigrations, opts);
  const db = openDatabase(file, migrations, opts);
  moveSessionTables(db, log);
  return { db, log, logFile };
}
