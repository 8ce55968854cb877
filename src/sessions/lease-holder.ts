// Who holds a session's lease: this process, named host:pid:nonce, and whether another name of this host is a process
// that is gone (its leases are taken at once rather than after three missed heartbeats).
import { randomBytes } from "node:crypto";
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
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}
