// Crash-safe file replacement: write a unique temp file, fsync, then rename over the target.
import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

const STALE_TEMP_MS = 10 * 60 * 1000;

/** Writes `parts` to `path` via temp file + fsync + rename (atomic on POSIX and NTFS). */
export async function writeFileAtomic(path: string, parts: readonly Uint8Array[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;
  try {
    const fh = await open(tmp, "w", 0o644);
    try {
      for (const part of parts) {
        let off = 0;
        while (off < part.length) off += (await fh.write(part, off, part.length - off)).bytesWritten;
      }
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  const dir = await open(dirname(path), "r").catch(() => null); // persist the rename where supported
  await dir?.sync().catch(() => undefined);
  await dir?.close();
}

/** Deletes `<path>.tmp-*` files older than 10 minutes (left by crashed writers). */
export async function removeStaleTempFiles(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.tmp-`;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const st = await stat(join(dir, name)).catch(() => null);
    if (st !== null && Date.now() - st.mtimeMs > STALE_TEMP_MS) await unlink(join(dir, name)).catch(() => undefined);
  }
}
