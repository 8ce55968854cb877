// The PostgreSQL store's write transactions: one pooled connection each, taking the advisory locks in one order (the
// chunks' LOCK.changes before a workspace's LOCK.audit), so concurrent writers on any replica never wait in a circle.
// The steps themselves are shared with SQLite (../write-steps.ts); here each call is awaited on the client.
import type { EventDraft } from "../../ports/audit-log.ts";
import type { DocumentWrite } from "../../ports/documents.ts";
import { runAwaiting, type ForgetKey, type Step, type TxEngine } from "../write-steps.ts";
import type { Outcome } from "../group-commit.ts";
import type { LoggedReplace } from "../committed-changes.ts";
import { transaction, type Conn, type Db } from "./open.ts";
import type pg from "pg";

/** A document and its audit events, as group commit batches them. */
export type BatchedWrite = { workspaceId: string; document: DocumentWrite; events: readonly EventDraft[] | undefined };

/** The writes cut, in order, into runs that name each (workspace, source_path) once. */
function distinctRuns(writes: readonly BatchedWrite[]): BatchedWrite[][] {
  const runs: BatchedWrite[][] = [];
  let seen = new Set<string>();
  for (const w of writes) {
    const key = `${w.workspaceId}\0${w.document.doc.sourcePath}`;
    if (seen.has(key) || runs.length === 0) {
      runs.push([]);
      seen = new Set();
    }
    seen.add(key);
    runs.at(-1)!.push(w);
  }
  return runs;
}

/** The repositories' own parts of a transaction, each run on its connection. */
export interface WriteSteps {
  documents: {
    write(c: pg.PoolClient, workspaceId: string, write: DocumentWrite): Promise<void>;
    /** Logs its replaces' change rows with tx.logged(c, ...). */
    writeMany(c: pg.PoolClient, writes: readonly { workspaceId: string; document: DocumentWrite }[]): Promise<void>;
    wasForgotten(workspaceId: string, key: ForgetKey, c: Conn): Promise<boolean>;
  };
  audit: {
    append(c: pg.PoolClient, workspaceId: string, drafts: readonly EventDraft[]): Promise<unknown>;
    appendMany(
      c: pg.PoolClient,
      appends: readonly { workspaceId: string; drafts: readonly EventDraft[] }[],
    ): Promise<unknown>;
  };
}

export class PostgresTransactions {
  private steps: WriteSteps | null = null;
  /** Per open transaction, the replaces it wrote that still stand (a rolled-back savepoint's are taken out). */
  private readonly journals = new WeakMap<pg.PoolClient, LoggedReplace[]>();

  constructor(
    private readonly db: Db,
    /** Told of the replaces each transaction held, once it has committed (SearchFeedRepo.committed). */
    private readonly feed: { committed(replaces: readonly LoggedReplace[]): void },
  ) {}

  /** The repositories' steps, once they are built (they are built with this object, so after it). */
  join(steps: WriteSteps): void {
    this.steps = steps;
  }

  /** Runs fn in one transaction on one pooled connection; rolls back on any error. */
  async run<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const journal: LoggedReplace[] = [];
    const result = await transaction(this.db, async (c) => {
      this.journals.set(c, journal);
      try {
        return await fn(c);
      } finally {
        this.journals.delete(c);
      }
    });
    this.feed.committed(journal);
    return result;
  }

  /** Replaces a write step made on the transaction's client `c` (told to the feed if the transaction commits). */
  logged(c: pg.PoolClient, replaces: readonly LoggedReplace[]): void {
    this.journals.get(c)?.push(...replaces);
  }

  /** `fn` in a savepoint of the transaction on `c`: its answer, or its error once rolled back (its logged replaces too). */
  private async savepoint<T>(c: pg.PoolClient, name: string, fn: () => Promise<T>): Promise<Outcome<T>> {
    const journal = this.journals.get(c);
    const mark = journal?.length ?? 0;
    await c.query(`SAVEPOINT ${name}`);
    try {
      const ok = await fn();
      await c.query(`RELEASE SAVEPOINT ${name}`);
      return { ok };
    } catch (err) {
      await c.query(`ROLLBACK TO SAVEPOINT ${name}`);
      journal?.splice(mark);
      return { error: err as Error };
    }
  }

  /** A shared step (write-steps.ts) as one transaction; `c` is its client, for the caller's own calls. */
  runStep<T>(step: (tx: TxEngine, c: pg.PoolClient) => Step<T>): Promise<T> {
    return this.run((c) => runAwaiting(step(this.engine(c), c)));
  }

  /**
   * Several shared steps in one transaction (group commit), each in a savepoint of its own: one that fails is rolled back
   * alone and answers its error, the others commit together. A failed COMMIT rejects them all. `together`, when given,
   * is tried first: the whole batch's writes in a few many-row statements (an answer a step); if it fails, it is rolled
   * back and the steps run one by one, so only a failing one is refused.
   */
  runBatch<T>(
    steps: readonly ((tx: TxEngine, c: pg.PoolClient) => Step<T>)[],
    together?: (c: pg.PoolClient) => Promise<T[]>,
  ): Promise<Outcome<T>[]> {
    return this.run(async (c) => {
      if (together) {
        const all = await this.savepoint(c, "together", () => together(c));
        if ("ok" in all) return all.ok.map((ok) => ({ ok }));
      }
      const tx = this.engine(c);
      const outcomes: Outcome<T>[] = [];
      for (const step of steps) outcomes.push(await this.savepoint(c, "write", () => runAwaiting(step(tx, c))));
      return outcomes;
    });
  }

  /**
   * Documents and their events as a few many-row statements (group commit's batch: one round trip a table rather than
   * about ten a document), in the lock order of a single write: LOCK.changes, then each workspace's LOCK.audit. A
   * document written twice in the batch starts a new set of statements (a many-row upsert cannot change a row twice).
   */
  async writeTogether(c: pg.PoolClient, writes: readonly BatchedWrite[]): Promise<void[]> {
    const { documents, audit } = this.joined();
    for (const part of distinctRuns(writes)) {
      await documents.writeMany(c, part);
      await audit.appendMany(
        c,
        part.map((w) => ({ workspaceId: w.workspaceId, drafts: w.events ?? [] })),
      );
    }
    return writes.map(() => undefined);
  }

  /** The step's calls on one connection: `documents.write` takes LOCK.changes, before any LOCK.audit of the events. */
  engine(c: Conn): TxEngine {
    const { documents, audit } = this.joined();
    return {
      execute: async (sql, params) => (await c.query(numbered(sql), [...params])).rowCount ?? 0,
      get: async <R>(sql: string, params: readonly unknown[]) =>
        (await c.query(numbered(sql), [...params])).rows[0] as R | undefined,
      writeDocument: (workspaceId, write) => documents.write(asClient(c), workspaceId, write),
      appendEvents: (workspaceId, drafts) => audit.append(asClient(c), workspaceId, drafts),
      forgotten: (workspaceId, key) => documents.wasForgotten(workspaceId, key, c),
    };
  }

  private joined(): WriteSteps {
    if (!this.steps) throw new Error("PostgresTransactions used before join()");
    return this.steps;
  }
}

const texts = new Map<string, string>();

/** The shared SQL's `?` placeholders as PostgreSQL's `$1, $2, ...` (none of that SQL has a `?` in a literal). */
export function numbered(sql: string): string {
  let text = texts.get(sql);
  if (text === undefined) {
    let n = 0;
    texts.set(sql, (text = sql.replace(/\?/g, () => `$${++n}`)));
  }
  return text;
}

function asClient(c: Conn): pg.PoolClient {
  if (!("release" in c)) throw new Error("a write step needs a transaction's client, not the pool");
  return c;
}
