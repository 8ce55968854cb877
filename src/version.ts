// The package's version, read without loading the runtime (so `smriti --help` stays quick).
import { readFileSync } from "node:fs";

export const VERSION = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
).version;
