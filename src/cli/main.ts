// The `smriti` command's entry: the program (program.ts) on this process's arguments.
import { runSmriti } from "./program.ts";

const code = await runSmriti(process.argv.slice(2));
if (code !== 0) process.exitCode = code;
