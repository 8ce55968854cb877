// `smriti audit verify` as a child process: a clean log verifies; an edited, removed or reordered event is caught and named.
import Database from "better-sqlite3";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventHash } from "../../src/domain/audit/event-hash.ts";
import type { EventRow } from "../../src/store/rows.ts";
import { runCli } from "../cli/cli-helpers.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { audit, FACTOIDS, ingestCorpus, json, UNRELATED } from "./support.ts";

interface VerifyResult {
  workspace: string;
  events: number;
  break: { seq: number; reason: string } | null;
}

const verify = (dataDir: string, json = true) =>
  runCli(["audit", "verify", "--data", dataDir, ...(json ? ["--json"] : [])]);

let svc: TestService;
let pristine: string;
let events: number;
const copies: string[] = [];

/** A private copy of the verified vault to tamper with. */
function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), "smriti-tamper-"));
  copies.push(dir);
  cpSync(pristine, dir, { recursive: true });
  return dir;
}

function tamper(dir: string, fn: (db: Database.Database, workspaceId: string) => void): void {
  const db = new Database(join(dir, "smriti.db"));
  try {
    fn(db, svc.workspaceId);
  } finally {
    db.close();
  }
}

async function expectBroken(dir: string, seq: number, reason: string): Promise<void> {
  const res = await verify(dir);
  expect(res.code, res.stderr).not.toBe(0);
  expect(res.code).toBe(2);
  const [result] = JSON.parse(res.stdout) as VerifyResult[];
  expect(result).toMatchObject({ workspace: "default", break: { seq, reason } });
  expect(res.stderr).toMatch(/verification failed/);
}

beforeAll(async () => {
  svc = await startTestService({ actors: ["agent-1"] });
  await ingestCorpus(svc, undefined, { "x-svc-actor-id": "agent-1" });
  await json(svc.post("/v1/grounded/answer", { question: FACTOIDS[0]!.question }), 200);
  await json(svc.post("/v1/grounded/answer", { question: UNRELATED }), 422);
  await json(svc.post("/v1/memory/forget", { source_path: "notes/bakery.md" }), 200);
  events = (await audit(svc, { limit: 1000 })).events.length;
  expect(events).toBeGreaterThan(10);
  // Closed, so the WAL is checkpointed into smriti.db before anything reads or copies it.
  await svc.runtime.close();
  pristine = svc.dataDir;
});
afterAll(async () => {
  await svc.cleanup();
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe("smriti audit verify", { timeout: 90_000 }, () => {
  it("reports an untouched log as ok (exit 0) with its event count", async () => {
    const res = await verify(pristine);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([{ workspace: "default", events, break: null }]);
    const text = await verify(pristine, false);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`default: ok (${events} events)\n`);
  });

  it("detects an edited payload and names that event's seq", async () => {
    const dir = copy();
    tamper(dir, (db, ws) => {
      const row = db.prepare("SELECT payload FROM events WHERE workspace_id = ? AND seq = 3").get(ws) as {
        payload: string;
      };
      const edited = row.payload.replace(/"source_path":"[^"]*"/, '"source_path":"innocent.md"');
      expect(edited).not.toBe(row.payload);
      expect(
        db.prepare("UPDATE events SET payload = ? WHERE workspace_id = ? AND seq = 3").run(edited, ws).changes,
      ).toBe(1);
    });
    await expectBroken(dir, 3, "hash_mismatch");
    const text = await verify(dir, false);
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/default: BROKEN at event 3 \(hash_mismatch\)/);
  });

  it("detects an edited actor (every field is hashed, not only the payload)", async () => {
    const dir = copy();
    tamper(dir, (db, ws) =>
      expect(
        db.prepare("UPDATE events SET actor_id = 'someone-else' WHERE workspace_id = ? AND seq = 2").run(ws).changes,
      ).toBe(1),
    );
    await expectBroken(dir, 2, "hash_mismatch");
  });

  it("detects an edit whose own hash was recomputed: the next event's prev_hash no longer matches", async () => {
    const dir = copy();
    tamper(dir, (db, ws) => {
      const row = db.prepare("SELECT * FROM events WHERE workspace_id = ? AND seq = 5").get(ws) as EventRow;
      const payload = row.payload.replace(/"source_path":"[^"]*"/, '"source_path":"rewritten.md"');
      const hash = eventHash({
        workspaceId: row.workspace_id,
        seq: row.seq,
        id: row.id,
        type: row.type,
        actorId: row.actor_id,
        tokenId: row.token_id,
        at: row.at,
        trajectoryId: row.trajectory_id,
        payload,
        prevHash: row.prev_hash,
      });
      expect(hash).not.toBe(row.hash);
      db.prepare("UPDATE events SET payload = ?, hash = ? WHERE workspace_id = ? AND seq = 5").run(payload, hash, ws);
    });
    await expectBroken(dir, 6, "prev_hash_mismatch");
  });

  it("detects a deleted event", async () => {
    const dir = copy();
    tamper(dir, (db, ws) =>
      expect(db.prepare("DELETE FROM events WHERE workspace_id = ? AND seq = 4").run(ws).changes).toBe(1),
    );
    await expectBroken(dir, 5, "seq_gap");
  });

  it("detects a deleted event even when the later seqs are renumbered to close the gap", async () => {
    const dir = copy();
    tamper(dir, (db, ws) => {
      db.prepare("DELETE FROM events WHERE workspace_id = ? AND seq = 4").run(ws);
      // Shift down one at a time (ascending) so the primary key never collides.
      for (let seq = 5; seq <= events; seq++)
        db.prepare("UPDATE events SET seq = ? WHERE workspace_id = ? AND seq = ?").run(seq - 1, ws, seq);
    });
    await expectBroken(dir, 4, "prev_hash_mismatch");
  });

  it("detects events cut off the end of the log: the recorded head points past the last event", async () => {
    const dir = copy();
    tamper(dir, (db, ws) =>
      expect(db.prepare("DELETE FROM events WHERE workspace_id = ? AND seq >= ?").run(ws, events - 1).changes).toBe(2),
    );
    await expectBroken(dir, events, "head_mismatch");
  });

  it("detects two events whose seqs were swapped", async () => {
    const dir = copy();
    tamper(dir, (db, ws) => {
      const swap = db.transaction(() => {
        db.prepare("UPDATE events SET seq = -1 WHERE workspace_id = ? AND seq = 3").run(ws);
        db.prepare("UPDATE events SET seq = 3 WHERE workspace_id = ? AND seq = 4").run(ws);
        db.prepare("UPDATE events SET seq = 4 WHERE workspace_id = ? AND seq = -1").run(ws);
      });
      swap();
    });
    await expectBroken(dir, 3, "prev_hash_mismatch");
  });
});
