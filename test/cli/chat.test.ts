// `smriti chat` as a person uses it (stdin piped): the streamed answer with its citation, tool rows, an approval
// answered at its prompt, and the session kept in the data directory.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runJsonHere } from "./cli-helpers.ts";

describe("smriti chat", () => {
  const dir = mkdtempSync(join(tmpdir(), "smriti-chat-"));
  const data = join(dir, "data");
  beforeAll(async () => {
    const note = join(dir, "storage.md");
    writeFileSync(note, "# Storage\n\nAlice picked PostgreSQL in March 2024 for the billing service.\n");
    await runJsonHere(["ingest", note, "--data", data, "--json"]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("answers with citations, shows tool rows, asks at an approval and applies the answer", async () => {
    const input = ["Who picked PostgreSQL?", "Remember that the freeze starts on Monday.", "y", "/exit", ""].join("\n");
    const res = await runCli(["chat", "--data", data], { input });
    expect(res.code, res.stderr).toBe(0);
    const out = res.stdout;
    expect(out).toMatch(/^session ses_[0-9a-f-]{36} \(extractive, workspace-write, approvals on-write\)/);
    expect(out).toContain("· Plan: answer from cited evidence only (service_grounded_answer)");
    expect(out).toMatch(/→ service_grounded_answer \{"question":"Who picked PostgreSQL\?"/);
    expect(out).toMatch(/← service_grounded_answer ok \(\d+ ms\)/);
    expect(out).toMatch(
      /Alice\. Evidence: "Alice picked PostgreSQL in March 2024 for the billing service\." \(.*storage\.md\)\./,
    );
    expect(out).toMatch(/\[1\] .*storage\.md § Storage/);
    expect(out).toMatch(/\? service_ingest \{"content":"the freeze starts on Monday\."/);
    expect(out).toContain("approved");
    expect(out).toMatch(/Stored in memory as notes\/remembered\/[0-9a-f]{12}\.md\./);
    const recalled = await runJsonHere<{ hits: { text_span: string }[] }>([
      "recall",
      "freeze Monday",
      "--data",
      data,
      "--json",
    ]);
    expect(recalled.hits[0]!.text_span).toContain("the freeze starts on Monday");
  }, 60_000);

  it("denies at the prompt on anything but yes, and continues an existing session by id", async () => {
    const first = await runCli(["chat", "--data", data], { input: "Remember that lunch is at noon.\nno\n" });
    expect(first.stdout).toContain("denied");
    expect(first.stdout).toMatch(/I did not store the note \(denied/);
    const sid = /session (ses_[0-9a-f-]{36})/.exec(first.stdout)![1]!;
    const again = await runCli(["chat", "--data", data, "--session", sid], { input: "Who picked PostgreSQL?\n" });
    expect(again.stdout).toContain(`session ${sid}`);
    expect(again.stdout).toContain("Alice.");
  }, 60_000);
});
