// docs/architecture.md names every folder directly under src/ (read from the filesystem now, so a new folder fails here).
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const SRC = new URL("../../src/", import.meta.url);
const DOC = readFileSync(new URL("../../docs/architecture.md", import.meta.url), "utf8");
const FOLDERS = readdirSync(SRC, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

describe("docs/architecture.md", () => {
  it("reads the src/ folders", () => {
    expect(FOLDERS).toContain("contract");
  });

  it.each(FOLDERS)("names src/%s/", (folder) => {
    expect(
      DOC.includes(`\`${folder}/\``),
      `docs/architecture.md does not name \`${folder}/\`: add it to the folder table`,
    ).toBe(true);
  });
});
