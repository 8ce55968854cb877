// A chat turn runs in one process of all those on the store: it holds the session row's lease (the one background runs
// hold) from its start to its end, beaten while it runs. So another replica neither starts a second turn of the session
// nor ends the running one as cut off by a restart; a turn whose process died is ended by the next that looks.
import { AppError } from "../contract/errors.ts";
import type { Clock } from "../ports/clock.ts";
import type { SessionIndex, SessionKey } from "../ports/session-index.ts";
import { sessionKey } from "./ids.ts";
import { deadOnThisHost, PROCESS_ID } from "./lease-holder.ts";

/** How long a new turn waits for the process that ran the last one to let go (what it does after the last event). */
const HANDOVER_MS = 2_000;
/** How often it asks meanwhile. */
const RETRY_MS = 20;

/** One taker's hold on a session's lease: `lost` aborts when another process took the lease over. */
export interface LeaseHold {
  key: SessionKey;
  lost: AbortSignal;
}

export class TurnLeases {
  /** Per session: the holds taken in this process (a turn, a recovery, a sub-agent's turn); the row is let go with the last. */
  private readonly held = new Map<string, { key: SessionKey; holds: Set<AbortController> }>();
  private readonly releasing = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly index: SessionIndex,
    private readonly clock: Clock,
    private readonly heartbeatMs: number,
    private readonly logError: (message: string) => void,
  ) {}

  /** A turn (or a recovery, a sub-agent's turn) holds or is letting go of a lease here. */
  get holding(): boolean {
    return this.held.size > 0 || this.releasing.size > 0;
  }

  /**
   * Takes the session's lease for a turn here: null while a live process holds it. `handover`: the log says the last
   * turn ended, so its process lets go in a moment; wait for that rather than refuse.
   */
  async take(key: SessionKey, handover = false): Promise<LeaseHold | null> {
    const deadline = performance.now() + (handover ? HANDOVER_MS : 0);
    for (;;) {
      if (this.closed)
        throw new AppError("store_unavailable", "the service is shutting down; send it again in a moment");
      const claimed = await this.claim(key);
      if (claimed === "no row") return { key, lost: new AbortController().signal }; // nothing to coordinate on
      if (claimed) break;
      if (performance.now() >= deadline) return null;
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
    const k = sessionKey(key.workspaceId, key.sessionId);
    const entry = this.held.get(k) ?? { key, holds: new Set<AbortController>() };
    const lost = new AbortController();
    this.held.set(k, entry);
    entry.holds.add(lost);
    this.timer ??= setInterval(() => void this.beat(), this.heartbeatMs).unref();
    return { key, lost: lost.signal };
  }

  /** Lets go of one hold; the row's lease goes with the session's last hold in this process. */
  release(hold: LeaseHold): Promise<void> {
    const k = sessionKey(hold.key.workspaceId, hold.key.sessionId);
    const entry = this.held.get(k);
    if (!entry) return Promise.resolve();
    for (const c of entry.holds) if (c.signal === hold.lost) entry.holds.delete(c);
    if (entry.holds.size > 0) return Promise.resolve();
    this.held.delete(k);
    if (this.held.size === 0) this.stopBeating();
    const done = this.index
      .releaseSessions(PROCESS_ID, [hold.key])
      .catch((err: unknown) => this.logError(`session ${hold.key.sessionId}: lease release: ${String(err)}`));
    this.releasing.add(done);
    return done.finally(() => this.releasing.delete(done));
  }

  /** No more takes; waits for the releases under way (the store closes next). */
  async close(): Promise<void> {
    this.closed = true;
    this.stopBeating();
    await Promise.allSettled([...this.releasing]);
  }

  /**
   * Claims the row when nobody holds it, this process does, its holder's heartbeat is three beats old, or its holder is
   * gone from this host. A live holder elsewhere is answered without a write (reads of a session call this too).
   */
  private async claim(key: SessionKey): Promise<boolean | "no row"> {
    const row = await this.index.getSession(key.workspaceId, key.sessionId);
    if (!row) return "no row";
    const now = this.clock.now().getTime();
    const staleBefore = now - 3 * this.heartbeatMs;
    const elsewhere = row.owner !== null && row.owner !== PROCESS_ID;
    const gone = elsewhere && deadOnThisHost(row.owner!) ? row.owner! : undefined;
    if (elsewhere && !gone && row.heartbeatAt !== null && row.heartbeatAt >= staleBefore) return false;
    return this.index.claimSession(key, PROCESS_ID, now, staleBefore, gone);
  }

  private async beat(): Promise<void> {
    const entries = [...this.held.values()].map((e) => ({ key: e.key, holds: [...e.holds] }));
    const lost = await this.index
      .heartbeatSessions(
        PROCESS_ID,
        entries.map((e) => e.key),
        this.clock.now().getTime(),
      )
      .catch((err: unknown) => {
        this.logError(`chat turn heartbeat: ${String(err)}`);
        return [];
      });
    for (const k of lost) {
      this.logError(`session ${k.sessionId}: another process took over the lease of a turn running here; stopping it`);
      // The holds this beat was for: a turn that took the lease again since has a hold of its own.
      for (const c of entries.find((e) => e.key.workspaceId === k.workspaceId && e.key.sessionId === k.sessionId)
        ?.holds ?? [])
        c.abort();
    }
  }

  private stopBeating(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
