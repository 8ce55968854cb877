// The console's page weight: each file of a web/dist copy (index.html, assets/*.js and *.css) raw and gzipped at level 9.
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export interface BundleFile {
  path: string;
  bytes: number;
  gzipBytes: number;
}

export interface BundleSize {
  files: BundleFile[];
  bytes: number;
  gzipBytes: number;
  /** "production" when React's production build is in (its minified errors), "development" otherwise. */
  react: "production" | "development";
  /** When web/dist was built, and the newest of its sources (web/src, src/client, web/index.html, vite config). */
  builtAt: string;
  newestSourceAt: string;
}

/** Copies a build (web/dist) to a temporary folder, so that a rebuild during the run (tests rebuild it) changes nothing measured. */
export function snapshotDist(distDir: string): { dir: string; builtAt: number } {
  const dir = mkdtempSync(join(tmpdir(), "smriti-console-dist-"));
  const builtAt = statSync(join(distDir, "index.html")).mtimeMs;
  cpSync(distDir, dir, { recursive: true });
  return { dir, builtAt };
}

export function measureBundle(root: string, dist: { dir: string; builtAt: number }): BundleSize {
  const assets = readdirSync(join(dist.dir, "assets"))
    .filter((f) => f.endsWith(".js") || f.endsWith(".css"))
    .sort();
  const paths = ["index.html", ...assets.map((f) => `assets/${f}`)];
  const bodies = paths.map((path) => ({ path, body: readFileSync(join(dist.dir, path)) }));
  const files = bodies.map(({ path, body }) => ({
    path,
    bytes: body.length,
    gzipBytes: gzipSync(body, { level: 9 }).length,
  }));
  const production = bodies.some(({ path, body }) => path.endsWith(".js") && body.includes("Minified React error"));
  const sources = [
    join(root, "web/src"),
    join(root, "src/client"),
    join(root, "web/index.html"),
    join(root, "web/vite.config.ts"),
  ];
  return {
    files,
    bytes: files.reduce((s, f) => s + f.bytes, 0),
    gzipBytes: files.reduce((s, f) => s + f.gzipBytes, 0),
    react: production ? "production" : "development",
    builtAt: new Date(dist.builtAt).toISOString(),
    newestSourceAt: new Date(Math.max(...sources.map(newestMtime))).toISOString(),
  };
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}
