// The session log in a file of its own beside the memory file: a session's commits never touch the memory file, and a
// memory file made before the split hands its session tables over once, whole, on its first open.
import Database from "better-sqlite3";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SessionRow } from "../../src/ports/session-index.ts";
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { logMigrations, migrations } from "../../src/store/sqlite/schema.ts";
import { sessionLogFileOf } from "../../src/store/sqlite/session-log-file.ts";

const dir = mkdtempSync(join(tmpdir(), "smriti-session-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

const row = (sessionId: string, at: number): SessionRow => ({
  workspaceId: "ws_a",
  sessionId,
  kind: "background",
  status: "running",
  state: { at },
  stateSeq: at,
  createdAt: at,
  updatedAt: at,
  heartbeatAt: null,
});
const token = (i: number) => ({ type: "token", at: i, data: { text: `word${i}` } });
const tables = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[];
  } finally {
    db.close();
  }
};

describe("sqlite: the session log's own file", () => {
  it("takes a session's events, rows and leases; the memory file sees no commit from them, and one from an audit record", async () => {
    const file = join(dir, `split-${n++}.db`);
    const store = openSqliteStore(file);
    const watcher = new Database(file, { readonly: true }); // data_version moves when another connection commits to its file
    const version = () => watcher.pragma("data_version", { simple: true }) as number;
    try {
      const before = version();
      await store.streams.appendStream("ws_a", "ses_1", [token(1), token(2)]);
      await store.sessions.upsertSession(row("ses_1", 1));
      expect(await store.sessions.claimSession({ workspaceId: "ws_a", sessionId: "ses_1" }, "owner-a", 2, 0)).toBe(
        true,
      );
      expect(
        await store.sessions.heartbeatSessions("owner-a", [{ workspaceId: "ws_a", sessionId: "ses_1" }], 3),
      ).toEqual([]);
      expect(version()).toBe(before);
      expect((await store.streams.readStream("ws_a", "ses_1", 0, 10)).map((e) => e.seq)).toEqual([1, 2]);
      expect((await store.sessions.getSession("ws_a", "ses_1"))?.heartbeatAt).toBe(3);

      await store.audit.appendEvents("ws_a", [
        { type: "memory.note", actorId: null, tokenId: null, at: 4, trajectoryId: null, payload: {} },
      ]);
      expect(version()).not.toBe(before);
      expect(tables(sessionLogFileOf(file)).sort()).toEqual(["sessions", "stream_events"]);
      expect(tables(file)).not.toContain("stream_events");
      expect(tables(file)).not.toContain("sessions");
    } finally {
      watcher.close();
      await store.close();
    }
  });

  it("is named after the memory file, in its directory", () => {
    expect(sessionLogFileOf("/data/smriti.db")).toBe("/data/smriti-sessions.db");
    expect(sessionLogFileOf(":memory:")).toBe(":memory:");
  });
});

// How releases before the split made the session tables in the memory file (its migrations 9 to 11, now empty there).
const EARLIER = [
  `CREATE TABLE stream_events (workspace_id TEXT NOT NULL, stream TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, at INTEGER NOT NULL, data TEXT NOT NULL,
     PRIMARY KEY (workspace_id, stream, seq)) WITHOUT ROWID;`,
  `CREATE TABLE sessions (seq INTEGER PRIMARY KEY AUTOINCREMENT, workspace_id TEXT NOT NULL, session_id TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
     state TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, heartbeat_at INTEGER, UNIQUE (workspace_id, session_id));
   CREATE INDEX sessions_by_status ON sessions (kind, status);`,
  `ALTER TABLE sessions ADD COLUMN owner TEXT;`,
];
const FIRST_SESSION_MIGRATION = 8;
/** The memory file's last version with the session tables in it. */
const LAST_EARLIER = FIRST_SESSION_MIGRATION + EARLIER.length;

/** A memory file as a release before the split left it at `version`, with two streams and (from version 10) three sessions. */
function earlierFile(version: number): string {
  const file = join(dir, `earlier-${version}-${n++}.db`);
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  for (const m of migrations.slice(0, FIRST_SESSION_MIGRATION)) db.exec(m);
  for (const m of EARLIER.slice(0, version - FIRST_SESSION_MIGRATION)) db.exec(m);
  db.pragma(`user_version = ${version}`);
  const event = db.prepare(
    "INSERT INTO stream_events (workspace_id, stream, seq, type, at, data) VALUES ('ws_a', ?, ?, 'token', ?, ?)",
  );
  for (let i = 1; i <= 50; i++)
    event.run(i % 2 ? "ses_odd" : "ses_even", Math.ceil(i / 2), i, JSON.stringify({ text: `word${i}` }));
  if (version > FIRST_SESSION_MIGRATION + 1) {
    const owner = version > FIRST_SESSION_MIGRATION + 2 ? ", owner" : "";
    const session =
      db.prepare(`INSERT INTO sessions (workspace_id, session_id, kind, status, state, created_at, updated_at, heartbeat_at${owner})
      VALUES ('ws_a', ?, 'background', ?, '{}', ?, ?, ?${owner ? ", 'owner-old'" : ""})`);
    for (const [i, id] of ["ses_odd", "ses_even", "ses_third"].entries())
      session.run(id, i ? "completed" : "running", i, i, i);
  }
  db.close();
  return file;
}

describe("sqlite: a memory file made before the session log had its own file", () => {
  for (let version = FIRST_SESSION_MIGRATION + 1; version <= LAST_EARLIER; version++)
    it(`at schema version ${version}: its streams and sessions move to the log's file, in order, and leave the memory file`, async () => {
      const file = earlierFile(version);
      const store = openSqliteStore(file);
      try {
        const odd = await store.streams.readStream("ws_a", "ses_odd", 0, 100);
        expect(odd.map((e) => e.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
        expect(odd[0]?.data).toEqual({ text: "word1" });
        expect(await store.streams.readStream("ws_a", "ses_even", 10, 100)).toHaveLength(15);
        const sessions = await store.sessions.listSessions("ws_a", { limit: 10 });
        const hadSessions = version > FIRST_SESSION_MIGRATION + 1;
        expect(sessions.map((s) => s.sessionId)).toEqual(hadSessions ? ["ses_third", "ses_even", "ses_odd"] : []);
        // Appends carry on after the moved events, and a new session is listed after the moved ones.
        expect((await store.streams.appendStream("ws_a", "ses_odd", [token(99)]))[0]?.seq).toBe(26);
        await store.sessions.upsertSession(row("ses_new", 9));
        expect((await store.sessions.listSessions("ws_a", { limit: 1 }))[0]?.sessionId).toBe("ses_new");
        if (hadSessions) {
          const owned = await store.sessions.claimSession(
            { workspaceId: "ws_a", sessionId: "ses_odd" },
            "owner-new",
            10,
            0,
          );
          expect(owned).toBe(version < LAST_EARLIER); // the old owner's lease moved with its row
        }
      } finally {
        await store.close();
      }
      expect(tables(file)).not.toContain("stream_events");
      expect(tables(file)).not.toContain("sessions");
    });

  it("a move cut off after the log's commit copies nothing twice when the next open finishes it", async () => {
    const file = earlierFile(LAST_EARLIER);
    const log = new Database(sessionLogFileOf(file)); // the rows are in the log's file already, the memory file still has them
    for (const m of logMigrations) log.exec(m);
    log.pragma(`user_version = ${logMigrations.length}`);
    const columns = "seq, workspace_id, session_id, kind, status, state, created_at, updated_at, heartbeat_at, owner";
    log.exec(
      `ATTACH DATABASE '${file}' AS old; INSERT INTO stream_events SELECT * FROM old.stream_events;
       INSERT INTO sessions (${columns}) SELECT ${columns} FROM old.sessions; DETACH DATABASE old;`,
    );
    log.close();
    const store = openSqliteStore(file);
    try {
      expect(await store.streams.readStream("ws_a", "ses_odd", 0, 100)).toHaveLength(25);
      expect((await store.sessions.listSessions("ws_a", { limit: 10 })).map((s) => s.sessionId)).toEqual([
        "ses_third",
        "ses_even",
        "ses_odd",
      ]);
    } finally {
      await store.close();
    }
    expect(tables(file)).not.toContain("stream_events");
  });

  it("a second store opened on the file after the move finds nothing to move and reads the same log", async () => {
    const file = earlierFile(LAST_EARLIER);
    const first = openSqliteStore(file);
    const second = openSqliteStore(file);
    try {
      expect(await second.streams.readStream("ws_a", "ses_even", 0, 100)).toHaveLength(25);
      await first.streams.appendStream("ws_a", "ses_even", [token(100)]);
      expect((await second.streams.readStream("ws_a", "ses_even", 25, 10)).map((e) => e.seq)).toEqual([26]);
    } finally {
      await second.close();
      await first.close();
    }
    expect(existsSync(sessionLogFileOf(file))).toBe(true);
  });
});
