// Opens a pg pool on SMRITI_DATABASE_URL and brings the schema up to date, one replica at a time.
import pg from "pg";
import { LOCK, migrations } from "./schema.ts";

export type Db = pg.Pool;
export type Conn = pg.PoolClient | pg.Pool;

// BIGINT (epoch ms, seqs, ids) as numbers: every value the service stores is far below 2^53.
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

export async function openDatabase(url: string, opts: { max?: number; connectTimeoutMs?: number } = {}): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    types,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
  });
  // A connection the server drops (restart, failover) surfaces on its next query; an idle one must not crash the process.
  pool.on("error", () => {});
  // The pool listens only to idle clients: one checked out whose connection dies between two queries would emit 'error'
  // with no listener and take the process down (issue 39). Its next query fails instead, and the pool drops it.
  pool.on("connect", (client) => client.on("error", () => {}));
  await migrate(pool);
  return pool;
}

async function migrate(pool: Db): Promise<void> {
  await transaction(pool, async (c) => {
    await c.query("SELECT pg_advisory_xact_lock($1, 0)", [LOCK.migrate]); // replicas starting together migrate once
    await c.query("CREATE TABLE IF NOT EXISTS smriti_schema (version INTEGER NOT NULL)");
    const { rows } = await c.query<{ version: number }>("SELECT version FROM smriti_schema");
    const version = rows[0]?.version ?? 0;
    if (version > migrations.length)
      throw new Error(
        `the database has schema version ${version}; this Smriti knows ${migrations.length}: upgrade Smriti`,
      );
    for (let v = version; v < migrations.length; v++) await c.query(migrations[v]!);
    if (rows.length === 0) await c.query("INSERT INTO smriti_schema (version) VALUES ($1)", [migrations.length]);
    else await c.query("UPDATE smriti_schema SET version = $1", [migrations.length]);
  });
}

/** Runs fn in one transaction on one pooled connection; rolls back on any error. */
export async function transaction<T>(pool: Db, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  let broken = false;
  try {
    await c.query("BEGIN");
    const out = await fn(c);
    await c.query("COMMIT");
    return out;
  } catch (err) {
    await c.query("ROLLBACK").catch(() => (broken = true)); // a connection that cannot roll back is dropped, not reused
    throw err;
  } finally {
    c.release(broken);
  }
}

/** Takes a transaction-scoped advisory lock: LOCK.changes serialises chunk writers, the others one workspace or stream. */
export async function lock(c: pg.PoolClient, key: number, scope = ""): Promise<void> {
  await c.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [key, scope]);
}
