// SMRITI_EMBED_MODEL on an install without the optional onnxruntime-node: a start-up error saying what to install.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { TINY_MODEL } from "../helpers/tiny-model.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("without onnxruntime-node", () => {
  it("SMRITI_EMBED_MODEL stops the start, naming the package and how to install it", () => {
    const script = `
      const { createEmbedderFromEnv } = await import("./src/embed/config.ts");
      try { await createEmbedderFromEnv({ SMRITI_EMBED_MODEL: ${JSON.stringify(TINY_MODEL)} }); console.log("started"); }
      catch (err) { console.log(err.message); }`;
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "--import", "./test/helpers/hide-onnxruntime.mjs", "--input-type=module", "-e", script],
      { cwd: root, encoding: "utf8" },
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      /SMRITI_EMBED_MODEL needs the optional package onnxruntime-node, which is not installed/,
    );
    expect(run.stdout).toMatch(/npm install onnxruntime-node@1\.30\.0/);
  });
});
