// Lists the files an ingest run covers: gitignore-style rules per directory, always-skipped and hidden entries, no symlinked dirs.
import ignore, { type Ignore } from "ignore";
import { lstat, readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Directory names never descended into (nor ingested when named explicitly). */
export const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);
/** Files whose rules apply, like .gitignore, to their own directory and everything below it. */
export const IGNORE_FILES = [".gitignore", ".smritiignore"];

export interface WalkedFile {
  /** Absolute path on disk. */
  path: string;
  /** Path relative to the walk's base directory (the cwd), or to the input's own root when it lies outside the base, with posix separators: the source_path. */
  sourcePath: string;
}

export interface WalkResult {
  files: WalkedFile[];
  /** Inputs named explicitly but ignored by the rules (or always-skipped). */
  ignored: string[];
  /** Inputs or directories that could not be read. */
  errors: { sourcePath: string; error: string }[];
}

interface Layer {
  dir: string;
  rules: Ignore;
}

const caseInsensitive = process.platform === "darwin" || process.platform === "win32";

export function toSourcePath(base: string, path: string): string {
  return relative(base, path).split(sep).join("/");
}

export interface WalkOptions {
  /** Directory source paths are relative to (default: the cwd). */
  base?: string;
  /** Also descend into dot-files and dot-directories (default false: they often hold secrets or tool state). */
  hidden?: boolean;
}

/** Walks files and directories in order; each file is listed once even when inputs overlap. */
export async function walk(inputs: readonly string[], opts: WalkOptions = {}): Promise<WalkResult> {
  const base = resolve(opts.base ?? process.cwd());
  const result: WalkResult = { files: [], ignored: [], errors: [] };
  const seen = new Set<string>();
  const layerCache = new Map<string, Layer | null>();
  const layerOf = async (dir: string): Promise<Layer | null> => {
    if (!layerCache.has(dir)) layerCache.set(dir, await loadLayer(dir));
    return layerCache.get(dir) ?? null;
  };

  const visit = async (path: string, layers: readonly Layer[], isDir: boolean, root: string): Promise<void> => {
    if (isDir) {
      const own = await layerOf(path);
      const inner = own ? [...layers, own] : layers;
      let entries;
      try {
        entries = await readdir(path, { withFileTypes: true });
      } catch (err) {
        result.errors.push({ sourcePath: toSourcePath(root, path), error: (err as Error).message });
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const e of entries) {
        if (ALWAYS_SKIPPED.has(e.name) || (!opts.hidden && e.name.startsWith("."))) continue;
        const child = join(path, e.name);
        let dir = e.isDirectory();
        if (e.isSymbolicLink()) {
          // Symlinked files are followed; symlinked directories are not (no cycles, no escaping the tree).
          const target = await stat(child).catch(() => undefined);
          if (!target?.isFile()) continue;
          dir = false;
        } else if (!dir && !e.isFile()) continue;
        if (isIgnored(inner, child, dir)) continue;
        await visit(child, inner, dir, root);
      }
      return;
    }
    const sourcePath = toSourcePath(root, path);
    if (!seen.has(sourcePath)) {
      seen.add(sourcePath);
      result.files.push({ path, sourcePath });
    }
  };

  for (const input of inputs) {
    const path = resolve(base, input);
    const info = await stat(path).catch((err: Error) => err);
    if (info instanceof Error) {
      result.errors.push({
        sourcePath: toSourcePath(base, path),
        error: (info as NodeJS.ErrnoException).code === "ENOENT" ? "no such file or directory" : info.message,
      });
      continue;
    }
    const isDir = info.isDirectory();
    if (!isDir && !info.isFile()) {
      result.errors.push({ sourcePath: toSourcePath(base, path), error: "not a regular file" });
      continue;
    }
    // Rules of the directories between the base and the input apply to it as they would during a walk from the base.
    const layers: Layer[] = [];
    for (const dir of ancestorsWithin(base, path)) {
      const layer = await layerOf(dir);
      if (layer) layers.push(layer);
    }
    const explicitSkip = ALWAYS_SKIPPED.has(basename(path)) || isIgnored(layers, path, isDir);
    // Inside the base, paths stay relative to it; an input elsewhere is its own root (`/srv/notes/a.md` is `a.md`),
    // not a climb such as `../../srv/notes/a.md` that depends on where the command ran.
    const root = isWithin(base, path) ? base : isDir ? path : dirname(path);
    if (explicitSkip && path !== base) {
      result.ignored.push(toSourcePath(root, path));
      continue;
    }
    await visit(path, layers, isDir, root);
  }
  return result;
}

function isWithin(base: string, path: string): boolean {
  const rel = relative(base, path);
  return !(rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** The directories from `base` down to the parent of `path`, or only the parent when `path` lies outside `base`. */
function ancestorsWithin(base: string, path: string): string[] {
  const rel = relative(base, path);
  if (rel === "") return [];
  if (!isWithin(base, path)) return [dirname(path)];
  const dirs = [base];
  const parts = rel.split(sep);
  for (let i = 1; i < parts.length; i++) dirs.push(join(base, ...parts.slice(0, i)));
  return dirs;
}

async function loadLayer(dir: string): Promise<Layer | null> {
  const texts: string[] = [];
  for (const name of IGNORE_FILES) {
    const file = join(dir, name);
    const info = await lstat(file).catch(() => undefined);
    if (info?.isFile()) texts.push(await readFile(file, "utf8").catch(() => ""));
  }
  if (texts.length === 0) return null;
  return { dir, rules: ignore({ ignorecase: caseInsensitive }).add(texts.join("\n")) };
}

/** Later (deeper) layers override earlier ones, as nested .gitignore files do in git. */
function isIgnored(layers: readonly Layer[], path: string, isDir: boolean): boolean {
  let ignored = false;
  for (const layer of layers) {
    const rel = toSourcePath(layer.dir, path);
    if (rel === "" || rel === ".." || rel.startsWith("../")) continue;
    const verdict = layer.rules.test(isDir ? `${rel}/` : rel);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}
