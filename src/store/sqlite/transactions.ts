// The SQLite store's write transactions: synchronous, so nothing else runs on the connection between BEGIN IMMEDIATE
// and COMMIT (an await inside one would let another request's statements into it). The steps themselves are shared
// with PostgreSQL (../write-steps.ts); here they run to their end in one tick, each call answered at once.
import type { EventDraft } from "../../ports/audit-log.ts";
import type { DocumentWrite } from "../../ports/documents.ts";
import type { LoggedReplace } from "../committed-changes.ts";
import { runNow, type ForgetKey, type Step, type TxEngine } from "../write-steps.ts";
import type { Db } from "./open.ts";
import type Database from "better-sqlite3";

/** The repositories' own parts of a transaction, each run inside it. */
export interface WriteSteps {
  documents: {
    write(workspaceId: string, write: DocumentWrite): void;
    forgotten(workspaceId: string, key: ForgetKey): boolean;
    recordReplaces<T>(fn: () => T): { result: T; replaces: LoggedReplace[] };
  };
  audit: { append(workspaceId: string, drafts: readonly EventDraft[]): unknown };
}

export class SqliteTransactions implements TxEngine {
  private steps: WriteSteps | null = null;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Db,
    /** Told of every write this connection commits, with the replaces it held (SearchFeedRepo). */
    private readonly feed: { wrote(): void; committed(replaces: readonly LoggedReplace[]): void },
  ) {}

  /** The repositories' steps, once they are built (they are built with this object, so after it). */
  join(steps: WriteSteps): void {
    this.steps = steps;
  }

  /** One write transaction around a change and its audit event; the search engine sees it at its next change check. */
  run<T>(fn: () => T): T {
    if (this.db.inTransaction) return this.db.transaction(fn).immediate(); // a savepoint: the outer one tells the feed
    let replaces: readonly LoggedReplace[] = [];
    try {
      const recorded = this.joined().documents.recordReplaces(() => this.db.transaction(fn).immediate());
      replaces = recorded.replaces;
      return recorded.result;
    } finally {
      this.feed.wrote();
      this.feed.committed(replaces);
    }
  }

  /** A shared step (write-steps.ts) as one write transaction. */
  runStep<T>(step: (tx: TxEngine) => Step<T>): T {
    return this.run(() => runNow(step(this)));
  }

  /** A write committed on another connection of this process (the writer thread), with the replaces it held. */
  committedElsewhere(replaces: readonly LoggedReplace[]): void {
    this.feed.wrote();
    this.feed.committed(replaces);
  }

  execute(sql: string, params: readonly unknown[]): number {
    return this.prepared(sql).run(...params).changes;
  }

  get<R>(sql: string, params: readonly unknown[]): R | undefined {
    return this.prepared(sql).get(...params) as R | undefined;
  }

  writeDocument(workspaceId: string, write: DocumentWrite): void {
    this.joined().documents.write(workspaceId, write);
  }

  appendEvents(workspaceId: string, drafts: readonly EventDraft[]): unknown {
    return this.joined().audit.append(workspaceId, drafts);
  }

  forgotten(workspaceId: string, key: ForgetKey): boolean {
    return this.joined().documents.forgotten(workspaceId, key);
  }

  /** SQLite takes `?` as written; each text is prepared once. */
  private prepared(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) this.statements.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  private joined(): WriteSteps {
    if (!this.steps) throw new Error("SqliteTransactions used before join()");
    return this.steps;
  }
}
