// A throwaway PostgreSQL cluster for the tests when SMRITI_TEST_DATABASE_URL names none: Debian's binaries, a temporary
// directory, a free loopback port, the `postgres` system user when run as root (the server refuses root), trust auth.
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCluster {
  url: string;
  /** Stops the server, keeping its data (a database outage); `resume` starts it again on the same port. */
  pause(): void;
  resume(): void;
  /** `pg_ctl stop -m immediate`, keeping its data: every connection cut, as a crash of the server would; `resume` restarts it. */
  crash(): void;
  stop(): void;
}

/** The newest installed server's bin directory (Debian: /usr/lib/postgresql/<major>/bin), or null. */
export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(root, majors[0], "bin") : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** `durable`: commits acknowledged only once in the WAL (synchronous_commit on), for tests that crash the server. */
export async function startTestCluster(bin: string, opts: { durable?: boolean } = {}): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), "smriti-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", join(bin, cmd), ...args]]
      : [join(bin, cmd), args];
    const res = spawnSync(file, argv, { encoding: "utf8" });
    if (res.status !== 0) throw new Error(`${cmd} failed: ${res.stderr || res.stdout}`);
  };
  const data = join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "smriti", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=${opts.durable ? "on" : "off"} -c max_connections=400`;
  const start = () => run("pg_ctl", ["-D", data, "-l", join(dir, "server.log"), "-o", options, "-w", "start"]);
  start();
  return {
    url: `postgres://smriti@127.0.0.1:${port}/postgres`,
    pause: () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    resume: start,
    crash: () => run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]),
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
