// `smriti recall --since / --until / --as-of / --asked-at` over notes dated by their front matter (issue 45 item 5).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runJsonHere } from "./cli-helpers.ts";

let root: string;
let data: string;
const note = (date: string, text: string) => `---\ndate: ${date}\n---\n# Standup\n\n${text}\n`;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "smriti-cli-time-"));
  data = join(root, "data");
  mkdirSync(join(root, "notes"));
  writeFileSync(join(root, "notes/a.md"), note("2023-05-01", "The quokkaflux migration started."));
  writeFileSync(join(root, "notes/b.md"), note("2023-06-01", "The quokkaflux migration finished."));
  await runJsonHere(["ingest", "notes", "--json", "--data", data], { cwd: root });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const recall = async (...flags: string[]) =>
  (
    await runJsonHere<{ hits: { source_path: string; occurred_at: string }[] }>(
      ["recall", "quokkaflux migration", "--json", "--mode", "lexical", "--data", data, ...flags],
      { cwd: root },
    )
  ).hits.map((h) => `${h.source_path}@${h.occurred_at.slice(0, 10)}`);

describe("smriti recall time filters", { timeout: 120_000 }, () => {
  it("narrows by --since, --until and --as-of", async () => {
    expect((await recall()).sort()).toEqual(["notes/a.md@2023-05-01", "notes/b.md@2023-06-01"]);
    expect(await recall("--since", "2023-05-15T00:00:00Z")).toEqual(["notes/b.md@2023-06-01"]);
    expect(await recall("--until", "2023-05-15T00:00:00Z")).toEqual(["notes/a.md@2023-05-01"]);
    expect(await recall("--as-of", "2023-05-31T23:59:59Z")).toEqual(["notes/a.md@2023-05-01"]);
  });

  it("--detect-supersession marks a statement a later note replaced, and prints it", async () => {
    writeFileSync(join(root, "notes/c.md"), note("2023-07-01", "Our volleyball team has a 3-2 record in the league."));
    writeFileSync(join(root, "notes/d.md"), note("2023-08-01", "Our volleyball team has a 5-2 record in the league."));
    await runJsonHere(["ingest", "notes", "--json", "--data", data], { cwd: root });
    const args = ["recall", "volleyball record", "--mode", "lexical", "--data", data, "--detect-supersession"];
    const res = await runJsonHere<{ hits: { source_path: string; superseded_by?: { source_path: string } }[] }>(
      [...args, "--json"],
      { cwd: root },
    );
    expect(res.hits.map((h) => [h.source_path, h.superseded_by?.source_path])).toEqual([
      ["notes/d.md", undefined],
      ["notes/c.md", "notes/d.md"],
    ]);
    expect((await runCli(args, { cwd: root })).stdout).toContain("superseded by notes/d.md on 2023-08-01");
  });

  it("--asked-at reads the query's relative words against it", async () => {
    const firstAsked = async (askedAt: string) =>
      (
        await runJsonHere<{ hits: { source_path: string }[] }>(
          [
            "recall",
            "quokkaflux migration last month",
            "--json",
            "--mode",
            "lexical",
            "--data",
            data,
            "--asked-at",
            askedAt,
          ],
          { cwd: root },
        )
      ).hits[0]?.source_path;
    expect(await firstAsked("2023-05-20T09:00:00+02:00")).toBe("notes/a.md");
    expect(await firstAsked("2023-07-10T09:00:00Z")).toBe("notes/b.md");
    const bad = await runCli(["recall", "quokkaflux", "--data", data, "--asked-at", "yesterday"], { cwd: root });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("asked_at");
  });

  it("refuses a time it cannot read, naming the option's field", async () => {
    const res = await runCli(["recall", "quokkaflux", "--data", data, "--as-of", "last week"], { cwd: root });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain("as_of");
  });
});
