#!/usr/bin/env node
// Entry point of the `smriti` command: runs the TypeScript sources through tsx (no build step).
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
