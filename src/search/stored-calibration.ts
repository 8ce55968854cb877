// Fusion and score calibration fitted for one embedder (`npm run eval -- calibrate --embedder <dir>`), kept as a file per
// embedder id in the data directory: GloVe's fit ships in retrieval-config.ts, a user's own model's cannot.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { checkRetrievalConfig, type RetrievalConfig } from "./retrieval-config.ts";

const Mode = z.object({
  fusion: z.object({ lexical: z.number(), dense: z.number(), bias: z.number() }),
  calibration: z.object({ gap: z.number(), best: z.number(), rank: z.number(), bias: z.number() }),
});
const Stored = z.object({
  embedder: z.string(),
  fitted_at: z.string(),
  retrieval: z.object({ lexicalOnly: Mode, vectorOnly: Mode, hybrid: Mode, candidates: z.number().int().positive() }),
});

/** The file that holds `embedderId`'s fit (ids hold ':' and '@', kept out of the file name). */
export function calibrationFile(dir: string, embedderId: string): string {
  return join(dir, `${embedderId.replace(/[^A-Za-z0-9._-]/g, "_")}.json`);
}

/** The fit stored for the embedder, or null when it was never calibrated; a malformed file is an error naming it. */
export function readCalibration(dir: string, embedderId: string): RetrievalConfig | null {
  const file = calibrationFile(dir, embedderId);
  if (!existsSync(file)) return null;
  const parsed = Stored.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file} is not a calibration file: ${parsed.error.issues[0]?.message}`);
  if (parsed.data.embedder !== embedderId)
    throw new Error(`${file} was fitted for ${parsed.data.embedder}, not ${embedderId}`);
  checkRetrievalConfig(parsed.data.retrieval);
  return parsed.data.retrieval;
}

/** Stores a fit (replacing the file whole, so a reader never sees half of it); returns the file. */
export function writeCalibration(dir: string, embedderId: string, retrieval: RetrievalConfig, now: Date): string {
  checkRetrievalConfig(retrieval);
  mkdirSync(dir, { recursive: true });
  const file = calibrationFile(dir, embedderId);
  const { lexicalOnly, vectorOnly, hybrid, candidates } = retrieval;
  const body = {
    embedder: embedderId,
    fitted_at: now.toISOString(),
    retrieval: { lexicalOnly, vectorOnly, hybrid, candidates },
  };
  writeFileSync(`${file}.tmp`, `${JSON.stringify(body, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return file;
}
