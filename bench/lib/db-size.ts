// On-disk size of a SQLite database: the main file plus its WAL and shared-memory files when present.
import { existsSync, statSync } from "node:fs";

export interface DbSize {
  mainMB: number;
  walMB: number;
  totalMB: number;
}

export function dbSize(file: string): DbSize {
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
  const main = size(file);
  const wal = size(`${file}-wal`) + size(`${file}-shm`);
  const mb = (x: number) => Math.round((x / 2 ** 20) * 10) / 10;
  return { mainMB: mb(main), walMB: mb(wal), totalMB: mb(main + wal) };
}
