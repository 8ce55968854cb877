import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeStaleTempFiles, writeFileAtomic } from "../../src/embed/atomic-file.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "smriti-atomic-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("writes all parts, creating the directory, and leaves no temp file", async () => {
    const path = join(dir, "sub", "a.bin");
    await writeFileAtomic(path, [Buffer.from("hello "), new Uint8Array([119, 111, 114, 108, 100])]);
    expect(await readFile(path, "utf8")).toBe("hello world");
    expect(await readdir(join(dir, "sub"))).toEqual(["a.bin"]);
  });

  it("a failure mid-write keeps the previous file intact and cleans up", async () => {
    const path = join(dir, "b.bin");
    await writeFileAtomic(path, [Buffer.from("old content")]);
    const failing = {
      get length(): number {
        throw new Error("disk full");
      },
    } as unknown as Uint8Array;
    await expect(writeFileAtomic(path, [Buffer.from("new cont"), failing])).rejects.toThrow(/disk full/);
    expect(await readFile(path, "utf8")).toBe("old content");
    expect((await readdir(dir)).filter((n) => n.startsWith("b.bin"))).toEqual(["b.bin"]);
  });
});

describe("removeStaleTempFiles", () => {
  it("removes only old temp files of the given target", async () => {
    const path = join(dir, "c.bin");
    await writeFile(path, "x");
    await writeFile(`${path}.tmp-1-old`, "crashed");
    await writeFile(`${path}.tmp-2-fresh`, "in progress");
    await writeFile(join(dir, "other.bin.tmp-3-old"), "not ours");
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(`${path}.tmp-1-old`, hourAgo, hourAgo);
    await utimes(join(dir, "other.bin.tmp-3-old"), hourAgo, hourAgo);
    await removeStaleTempFiles(path);
    const names = (await readdir(dir)).sort();
    expect(names).toContain("c.bin.tmp-2-fresh");
    expect(names).toContain("other.bin.tmp-3-old");
    expect(names).not.toContain("c.bin.tmp-1-old");
  });
});
