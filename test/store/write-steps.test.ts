// The shared write steps' SQLite driver: a step runs to its end inside one synchronous transaction, so nothing can
// interleave on the connection, and a call that would need an await is refused and rolled back rather than run.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { call, runNow, type Step } from "../../src/store/write-steps.ts";

function* writeTwo(db: Database.Database, second: () => unknown): Step<number> {
  yield* call(() => db.prepare("INSERT INTO t (v) VALUES (1)").run());
  yield* call(second);
  return yield* call(() => (db.prepare("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n);
}

describe("write steps on SQLite", () => {
  const open = () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (v INTEGER)");
    return db;
  };
  const count = (db: Database.Database) => (db.prepare("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n;

  it("runs every call of a step inside one transaction, in this tick", () => {
    const db = open();
    let inside = false;
    const n = db
      .transaction(() => runNow(writeTwo(db, () => (inside = db.inTransaction && count(db) === 1))))
      .immediate();
    expect([n, inside, db.inTransaction]).toEqual([1, true, false]);
  });

  it("refuses a call answered by a promise, and the transaction rolls back what the step wrote before it", () => {
    const db = open();
    const step = () => db.transaction(() => runNow(writeTwo(db, () => Promise.resolve(1)))).immediate();
    expect(step).toThrow(/answered with a promise/);
    expect(count(db)).toBe(0);
  });
});
