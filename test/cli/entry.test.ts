// bin/smriti.js runs the compiled dist/ only while it is at least as new as every file under src/; otherwise the sources.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "smriti-bin-"));
  for (const dir of ["bin", "src/cli", "dist/cli"]) mkdirSync(join(root, dir), { recursive: true });
  copyFileSync(resolve("bin/smriti.js"), join(root, "bin/smriti.js"));
  symlinkSync(resolve("node_modules"), join(root, "node_modules"));
  writeFileSync(join(root, "package.json"), '{ "type": "module" }');
  writeFileSync(join(root, "src/cli/main.ts"), 'const from: string = "sources"; console.log(from);\n');
  writeFileSync(join(root, "dist/cli/main.js"), 'console.log("compiled");\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = () => spawnSync(process.execPath, [join(root, "bin/smriti.js")], { encoding: "utf8" }).stdout.trim();
const age = (path: string, secondsAgo: number) =>
  utimesSync(join(root, path), new Date(), new Date(Date.now() - secondsAgo * 1000));

it("runs dist/ when its build stamp is newer than every source file", () => {
  age("src/cli/main.ts", 60);
  writeFileSync(join(root, "dist/.build-stamp"), "now\n");
  expect(run()).toBe("compiled");
});

it("runs the sources when one changed after the build, or nothing was built", () => {
  writeFileSync(join(root, "dist/.build-stamp"), "then\n");
  age("dist/.build-stamp", 60);
  expect(run()).toBe("sources");
  rmSync(join(root, "dist/.build-stamp"));
  expect(run()).toBe("sources");
});
