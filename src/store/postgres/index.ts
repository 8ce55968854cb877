// The PostgreSQL Store (SMRITI_DATABASE_URL): the same ports as the embedded SQLite store, for several replicas on one
// database. Chunk writers hold one advisory lock so the change log's order is commit order; the audit chain and each
// event stream take their own.
import type { Store } from "../../ports/store.ts";
import { CognitiveRepo } from "./cognitive.ts";
import { DocumentRepo } from "./documents.ts";
import { EventLogRepo } from "./event-log.ts";
import { AuditRepo } from "./events.ts";
import { openDatabase } from "./open.ts";
import { RecordRepo } from "./records.ts";
import { SearchFeedRepo } from "./search-feed.ts";
import { SessionRepo } from "./sessions.ts";
import { StreamFollowers } from "../stream-followers.ts";
import { StreamListener } from "./stream-listener.ts";
import { PostgresTransactions } from "./transactions.ts";
import { guardConnectionLoss } from "./unavailable.ts";
import { WorkspaceRepo } from "./workspaces.ts";

export interface PostgresOptions {
  /** Connections in this replica's pool (default 10). */
  maxConnections?: number;
  /** How long a request waits for a connection before answering store_unavailable (default 5 s). */
  connectTimeoutMs?: number;
}

/** One repository per port over one pool; the stream listener's connection opens with the first follower. */
export async function openPostgresStore(url: string, opts: PostgresOptions = {}): Promise<Store> {
  const db = await openDatabase(url, {
    max: opts.maxConnections ?? 10,
    connectTimeoutMs: opts.connectTimeoutMs ?? 5_000,
  });
  const followers = new StreamFollowers();
  const listener = new StreamListener(url, followers);
  const feed = new SearchFeedRepo(db);
  const tx = new PostgresTransactions(db, feed);
  const documents = new DocumentRepo(db, tx);
  const records = new RecordRepo(db, tx);
  const audit = new AuditRepo(db);
  tx.join({ documents, audit });
  let closing: Promise<void> | null = null;
  return guardConnectionLoss({
    workspaces: new WorkspaceRepo(db),
    documents,
    audit,
    streams: new EventLogRepo(db, followers, listener),
    records,
    cognitive: new CognitiveRepo(db),
    feed,
    sessions: new SessionRepo(db),
    /** Idempotent, as SQLite's: runtimes sharing one store may each close it. */
    close() {
      closing ??= documents
        .settled()
        .then(() => listener.close())
        .then(() => db.end());
      return closing;
    },
  });
}
