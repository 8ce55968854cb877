// File tools for write-capable sessions, confined to the session's task workspace directory.
import { createHash } from "node:crypto";
import { lstat, mkdir, readdir, readFile, realpath, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { AppError } from "../../contract/errors.ts";
import { toolSchema } from "../../contract/tool-schema.ts";
import type { SessionTool } from "./tool.ts";

const MAX_FILE_BYTES = 1_000_000;
const RelPath = z.string().min(1).max(300).describe("A path inside the session's task workspace, e.g. notes/plan.md.");

/** The absolute path of `rel` inside `root`; anything that leaves it (.., absolute paths) or passes a symbolic link is refused. */
async function inside(root: string, rel: string): Promise<string> {
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  const target = resolve(realRoot, rel);
  if (target !== realRoot && !target.startsWith(realRoot + sep))
    throw new AppError("invalid_request", `'${rel}' is outside the session's task workspace`);
  // No component may be a link: a dangling one (a hook could make it) would carry a write outside.
  let at = realRoot;
  for (const part of relative(realRoot, target).split(sep).filter(Boolean)) {
    at = join(at, part);
    const info = await lstat(at).catch(() => null);
    if (info === null) break; // not there yet: nothing below it can be a link
    if (info.isSymbolicLink())
      throw new AppError("invalid_request", `'${rel}' passes through a symbolic link; file tools do not follow links`);
  }
  return target;
}

const tool = (t: Omit<SessionTool, "parameters" | "files">): SessionTool => ({
  ...t,
  files: true,
  parameters: toolSchema(t.input, "input"),
});

export const fileTools: SessionTool[] = [
  tool({
    name: "file_list",
    description: "List the files in this session's task workspace (paths relative to it).",
    input: z.strictObject({}),
    writes: false,
    run: async (ctx) => {
      const root = await inside(ctx.taskDir, ".");
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      return {
        result: {
          files: entries
            .filter((e) => e.isFile())
            .map((e) => relative(root, join(e.parentPath, e.name)))
            .sort(),
        },
      };
    },
  }),
  tool({
    name: "file_read",
    description: "Read a UTF-8 file from this session's task workspace.",
    input: z.strictObject({ path: RelPath }),
    writes: false,
    run: async (ctx, input) => {
      const { path } = input as { path: string };
      const file = await inside(ctx.taskDir, path);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) throw new AppError("not_found", `no file '${path}' in the task workspace`);
      if (info.size > MAX_FILE_BYTES)
        throw new AppError("payload_too_large", `'${path}' is over ${MAX_FILE_BYTES} bytes`);
      return { result: { path, content: await readFile(file, "utf8") } };
    },
  }),
  tool({
    name: "file_write",
    description:
      "Write (create or replace) a UTF-8 file in this session's task workspace; it becomes an artifact of the session.",
    input: z.strictObject({ path: RelPath, content: z.string().max(MAX_FILE_BYTES) }),
    writes: true,
    run: async (ctx, input) => {
      const { path, content } = input as { path: string; content: string };
      const file = await inside(ctx.taskDir, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content, "utf8");
      const sha256 = createHash("sha256").update(content).digest("hex");
      return { artifact: true, result: { path, bytes: Buffer.byteLength(content), sha256 } };
    },
  }),
];
