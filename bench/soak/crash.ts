// Phase 2: kill -9 of `smriti serve` at random points during ingest, forget, decision record, a chat turn and a
// background run, then a restart. After each: the SQLite file passes integrity_check, every acknowledged write is there
// (and every acknowledged forget gone), no document is half-written, the audit chain verifies, a cut chat turn is ended
// and its session takes the next message, and background runs end by the rules.
import Database from "better-sqlite3";
import { join } from "node:path";
import { parseSse } from "../../src/client/sse.ts";
import { cli, issueToken, startServe, type Serve } from "./serve.ts";

export type CrashOp = "ingest" | "forget" | "decision" | "chat turn" | "background run";
export const CRASH_OPS: CrashOp[] = ["ingest", "forget", "decision", "chat turn", "background run"];

export interface CrashResult {
  trials: Record<CrashOp, number>;
  corruptDatabases: number;
  lostAcknowledged: number;
  halfWrittenDocuments: number;
  auditFailures: number;
  /** Chat sessions that could not take a message after the restart, background runs not ended by the rules. */
  stuckSessions: number;
  examples: string[];
}

interface Acked {
  ingested: Map<string, string>; // source_path -> document_hash
  forgotten: Set<string>;
  decisions: Set<string>;
}

/** A small deterministic PRNG, so a run's kill points can be replayed from its seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

export async function crashTrials(dataDir: string, trialsPerOp: number, seed: number): Promise<CrashResult> {
  const r: CrashResult = {
    trials: { ingest: 0, forget: 0, decision: 0, "chat turn": 0, "background run": 0 },
    corruptDatabases: 0,
    lostAcknowledged: 0,
    halfWrittenDocuments: 0,
    auditFailures: 0,
    stuckSessions: 0,
    examples: [],
  };
  const note = (s: string) => void (r.examples.length < 10 && r.examples.push(s));
  const random = prng(seed);
  const acked: Acked = { ingested: new Map(), forgotten: new Set(), decisions: new Set() };
  const token = issueToken(dataDir);
  let srv = await startServe(dataDir);
  let n = 0;
  for (let t = 0; t < trialsPerOp; t++)
    for (const op of CRASH_OPS) {
      const killAt = 20 + random() * 300;
      const work = drive(srv.url, token, op, acked, ++n);
      await new Promise((res) => setTimeout(res, killAt));
      await srv.kill9();
      const cut = await work; // what the driver saw acknowledged before the connection died
      r.trials[op]++;
      const issues = checkFile(join(dataDir, "smriti.db"), acked);
      r.corruptDatabases += issues.corrupt;
      r.lostAcknowledged += issues.lost;
      r.halfWrittenDocuments += issues.halfWritten;
      issues.notes.forEach((s) => note(`${op} #${t}: ${s}`));
      srv = await startServe(dataDir);
      try {
        cli(dataDir, ["audit", "verify"]);
      } catch (err) {
        r.auditFailures++;
        note(`${op} #${t}: audit verify failed: ${(err as Error).message.slice(0, 200)}`);
      }
      if (cut.session && !(await sessionRecovers(srv, token, cut.session))) {
        r.stuckSessions++;
        note(`${op} #${t}: session ${cut.session.id} did not recover`);
      }
    }
  await srv.stop();
  return r;
}

/** Sends the operation over and over until the connection dies; records only what the service acknowledged. */
async function drive(
  base: string,
  token: string,
  op: CrashOp,
  acked: Acked,
  trial: number,
): Promise<{ session?: { id: string; kind: "chat" | "background" } }> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  let session: { id: string; kind: "chat" | "background" } | undefined;
  try {
    if (op === "chat turn" || op === "background run") {
      const res =
        op === "chat turn"
          ? await post("/chat/sessions", {})
          : await post("/sessions", {
              task: `What do we know about note ${trial}?`,
              permission_mode: "read-only",
              approval_mode: "never",
            });
      const body = (await res.json()) as { session_id?: string; session?: { session_id: string } };
      session = { id: body.session_id ?? body.session!.session_id, kind: op === "chat turn" ? "chat" : "background" };
      if (op === "chat turn")
        for (;;) {
          const turn = await post(`/chat/sessions/${session.id}/messages`, {
            message: `What does note ${trial} say about the lighthouse?`,
          });
          for await (const _ of parseSse(turn.body!));
        }
      return { session };
    }
    for (let i = 0; ; i++) {
      const path = `crash/${trial}-${i}.md`;
      if (op === "ingest" || op === "forget") {
        const content = `# Note ${trial}-${i}\n\n${"The lighthouse keeper logs the beacon at dusk. ".repeat(40)}\n\n## Later\n\nTrial ${trial} entry ${i}.\n`;
        const res = await post("/v1/memory/ingest", { source_path: path, content });
        if (res.ok) acked.ingested.set(path, ((await res.json()) as { document_hash: string }).document_hash);
        if (op === "forget" && res.ok) {
          acked.ingested.delete(path); // in doubt from here: a forget cut before its answer may or may not have landed
          const gone = await post("/v1/memory/forget", { source_path: path });
          if (gone.ok) acked.forgotten.add(path);
        }
      } else {
        const res = await post("/v1/decisions", {
          title: `Decision ${trial}-${i}`,
          decision: `We keep the beacon lit, entry ${i}.`,
        });
        if (res.ok) acked.decisions.add(((await res.json()) as { ref: string }).ref);
      }
    }
  } catch {
    return session ? { session } : {}; // the kill: whatever was not answered is not acknowledged
  }
}

/** integrity_check, acknowledged writes present (forgets absent), and every document whole (its chunks 0..n-1, no orphans). */
function checkFile(
  file: string,
  acked: Acked,
): { corrupt: number; lost: number; halfWritten: number; notes: string[] } {
  const notes: string[] = [];
  const db = new Database(file);
  try {
    const integrity = (db.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
    if (integrity !== "ok") return { corrupt: 1, lost: 0, halfWritten: 0, notes: [`integrity_check: ${integrity}`] };
    let lost = 0;
    const doc = db.prepare("SELECT document_hash FROM documents WHERE source_path = ?");
    for (const [path, hash] of acked.ingested) {
      const row = doc.get(path) as { document_hash: string } | undefined;
      if (row?.document_hash !== hash) {
        lost++;
        notes.push(`acknowledged ingest of ${path} missing`);
      }
    }
    for (const path of acked.forgotten)
      if (doc.get(path)) {
        lost++;
        notes.push(`acknowledged forget of ${path} undone`);
      }
    const records = db.prepare("SELECT 1 FROM records WHERE id = ? AND kind = 'decision'");
    for (const ref of acked.decisions)
      if (!records.get(ref)) {
        lost++;
        notes.push(`acknowledged decision ${ref} missing`);
      }
    const shapes = db
      .prepare(
        `SELECT d.source_path AS path, count(c.id) AS n, coalesce(min(c.ord), 0) AS lo, coalesce(max(c.ord), -1) AS hi
         FROM documents d LEFT JOIN chunks c ON c.workspace_id = d.workspace_id AND c.source_path = d.source_path
         GROUP BY d.workspace_id, d.source_path`,
      )
      .all() as { path: string; n: number; lo: number; hi: number }[];
    const orphans = (
      db
        .prepare(
          "SELECT count(*) AS n FROM chunks c WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.workspace_id = c.workspace_id AND d.source_path = c.source_path)",
        )
        .get() as { n: number }
    ).n;
    const broken = shapes.filter((s) => s.n === 0 || s.lo !== 0 || s.hi !== s.n - 1);
    broken.forEach((s) => notes.push(`document ${s.path}: ${s.n} chunks, ords ${s.lo}..${s.hi}`));
    if (orphans) notes.push(`${orphans} chunks without their document`);
    return { corrupt: 0, lost, halfWritten: broken.length + orphans, notes };
  } finally {
    db.close();
  }
}

/** A cut chat turn is ended and the session answers the next message; a background run ends completed or failed. */
async function sessionRecovers(
  srv: Serve,
  token: string,
  session: { id: string; kind: "chat" | "background" },
): Promise<boolean> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  if (session.kind === "chat") {
    const res = await fetch(`${srv.url}/chat/sessions/${session.id}/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({ message: "Are you still there?" }),
    });
    if (!res.ok) return false;
    let ended = false;
    for await (const e of parseSse(res.body!)) if (e.event === "completed") ended = true;
    return ended;
  }
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    const row = (await (await fetch(`${srv.url}/sessions/${session.id}`, { headers })).json()) as {
      session: { status: string };
    };
    if (row.session.status === "completed" || row.session.status === "failed") return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}
