// The ingest walker: nested and negated ignore rules, always-skipped and hidden entries, explicit paths, symlinks.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walk } from "../../src/cli/walk.ts";

let base: string;
const write = (rel: string, content = "x\n") => {
  mkdirSync(dirname(join(base, rel)), { recursive: true });
  writeFileSync(join(base, rel), content);
};
const listed = async (inputs: string[], hidden = false) =>
  (await walk(inputs, { base, hidden })).files.map((f) => f.sourcePath);

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "smriti-walk-"));
  write(".gitignore", "*.log\nout/\n/top-only.txt\n");
  write("a.md");
  write("a.log");
  write("top-only.txt");
  write("sub/top-only.txt");
  write("sub/.gitignore", "!keep.log\nlocal/\n");
  write("sub/keep.log");
  write("sub/drop.log");
  write("sub/local/x.md");
  write("sub/.smritiignore", "private.md\n");
  write("sub/private.md");
  write("out/gen.md");
  write("node_modules/m/index.js");
  write(".git/config");
  write(".hidden/h.md");
  write("docs/outer.md");
  symlinkSync(join(base, "docs"), join(base, "docs-link"));
  symlinkSync(join(base, "a.md"), join(base, "a-link.md"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("walk", () => {
  it("names files of an input outside the base relative to that input, never as ../ climbs", async () => {
    const elsewhere = join(base, "sub");
    const from = join(base, "docs"); // the command runs in docs/, the inputs lie beside it
    const paths = async (inputs: string[]) => (await walk(inputs, { base: from })).files.map((f) => f.sourcePath);
    expect(await paths([elsewhere])).toEqual(["keep.log", "top-only.txt"]);
    expect(await paths([join(base, "a.md")])).toEqual(["a.md"]);
    expect(await paths(["../sub"])).toEqual(["keep.log", "top-only.txt"]);
    // Inside the base nothing changes: relative to where the command runs.
    expect(await paths(["."])).toEqual(["outer.md"]);
  });

  it("applies each ignore file relative to its directory, deeper rules winning", async () => {
    expect(await listed(["."])).toEqual(["a-link.md", "a.md", "docs/outer.md", "sub/keep.log", "sub/top-only.txt"]);
  });

  it("walks dot-directories only when asked, never .git or node_modules", async () => {
    const all = await listed(["."], true);
    expect(all).toContain(".hidden/h.md");
    expect(all).toContain(".gitignore");
    expect(all.filter((p) => p.startsWith(".git/") || p.startsWith("node_modules/"))).toEqual([]);
  });

  it("applies the rules of the directories above an explicit path, and dedupes overlapping inputs", async () => {
    const res = await walk(["sub", "sub/keep.log", "a.log", "out", "node_modules"], { base });
    expect(res.files.map((f) => f.sourcePath)).toEqual(["sub/keep.log", "sub/top-only.txt"]);
    expect(res.ignored).toEqual(["a.log", "out", "node_modules"]);
  });

  it("reports missing inputs", async () => {
    expect((await walk(["nope.md"], { base })).errors).toEqual([
      { sourcePath: "nope.md", error: "no such file or directory" },
    ]);
  });
});
