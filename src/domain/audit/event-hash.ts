// The audit chain's hash: covers every field of an event and its predecessor's hash, so edits, removals and reorders show.
import { sha256Hex } from "../text/hash.ts";

export const GENESIS_HASH = `sha256:${"0".repeat(64)}`;

export interface HashedFields {
  workspaceId: string;
  seq: number;
  id: string;
  type: string;
  actorId: string | null;
  tokenId: string | null;
  at: number;
  trajectoryId: string | null;
  payload: string;
  prevHash: string;
}

export function eventHash(e: HashedFields): string {
  const fields = [
    e.workspaceId,
    e.seq,
    e.id,
    e.type,
    e.actorId,
    e.tokenId,
    e.at,
    e.trajectoryId,
    e.payload,
    e.prevHash,
  ];
  return `sha256:${sha256Hex(JSON.stringify(fields))}`;
}

/** Keys sorted recursively, so the same payload always serializes (and hashes) the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  return value;
}

export interface ChainBreak {
  seq: number;
  reason: "hash_mismatch" | "prev_hash_mismatch" | "seq_gap" | "head_mismatch";
}

/** Checks a workspace's events fed in seq order (a page at a time if need be); each call reports the first break so far. */
export function chainChecker(): (events: Iterable<HashedFields & { hash: string }>) => ChainBreak | null {
  let prev = GENESIS_HASH;
  let expectedSeq = 1;
  return (events) => {
    for (const e of events) {
      if (e.seq !== expectedSeq) return { seq: e.seq, reason: "seq_gap" };
      if (e.prevHash !== prev) return { seq: e.seq, reason: "prev_hash_mismatch" };
      if (eventHash(e) !== e.hash) return { seq: e.seq, reason: "hash_mismatch" };
      prev = e.hash;
      expectedSeq++;
    }
    return null;
  };
}

/** Walks a workspace's events in seq order and reports the first place the chain does not hold. */
export function verifyChain(events: Iterable<HashedFields & { hash: string }>): ChainBreak | null {
  return chainChecker()(events);
}
