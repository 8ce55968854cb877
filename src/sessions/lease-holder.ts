// Who holds a session's lease: this process, named host:pid:nonce, and whether another name of this host is a process
// that is gone (its leases are taken at once rather than after three missed heartbeats).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

/**
 * The name every lease this process takes is held under (the supervisor's runs and the chat turns alike). The nonce
 * keeps two replicas apart that share a hostname and a pid (containers on the host's network, each its own pid 1).
 */
export const PROCESS_ID = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

/** A holder (host:pid:nonce) of this host whose process no longer exists. */
export function deadOnThisHost(owner: string): boolean {
  const [host, pid] = owner.split(":");
  if (host !== hostname() || !pid) return false;
  try {
    process.kill(Number(pid), 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
  return exitedUnreaped(pid);
}

/**
 * A process that exited and waits to be reaped (Linux): a session process whose serving process was killed is handed to
 * init, and an init that does not reap (a container's own pid 1) leaves it there, still answering signals.
 */
function exitedUnreaped(pid: string): boolean {
  try {
    return /^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false; // no /proc: not Linux
  }
}
