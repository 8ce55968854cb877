// A chat turn runs in one process of all those on the store: it holds the session row's lease (the one background runs
// hold) from its start to its end, beaten while it runs. So another replica neither starts a second turn of the session
// nor ends the running one as cut off by a restart; a turn whose process died is ended by the next that looks.
import type { Clock } from "../ports/clock.ts";
import type { SessionIndex, SessionKey } from "../ports/session-index.ts";
import { sessionKey } from "./ids.ts";
import { deadOnThisHost, PROCESS_ID } from "./lease-holder.ts";

/** How long a new turn waits for the process that ran the last one to let go (what it does after the last event). */
const HANDOVER_MS = 2_000;
const RETRY_MS = 20;

export class TurnLeases {
  private readonly held = new Map<string, { key: SessionKey; lost: AbortController }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly index: SessionIndex,
    private readonly clock: Clock,
    private readonly heartbeatMs: number,
    private readonly logError: (message: string) => void,
  ) {}

  /**
   * Takes the session's lease for a turn here: null while a live process holds it, else a signal that aborts if another
   * process takes the lease over (this one stalled for three beats), so the turn stops. `handover`: the log says the
   * last turn ended, so its process lets go in a moment; wait for that rather than refuse.
   */
  async take(key: SessionKey, handover = false): Promise<AbortSignal | null> {
    const deadline = performance.now() + (handover ? HANDOVER_MS : 0);
    while (!(await this.claim(key))) {
      if (performance.now() >= deadline) return null;
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
    const k = sessionKey(key.workspaceId, key.sessionId);
    const held = this.held.get(k) ?? { key, lost: new AbortController() };
    this.held.set(k, held);
    this.timer ??= setInterval(() => void this.beat(), this.heartbeatMs).unref();
    return held.lost.signal;
  }

  /** Lets go of the lease (the turn ended or paused, or the lease was only taken to end a cut-off turn). */
  async release(key: SessionKey): Promise<void> {
    this.held.delete(sessionKey(key.workspaceId, key.sessionId));
    if (this.held.size === 0) this.stopBeating();
    await this.index.releaseSessions(PROCESS_ID, [key]).catch((err: unknown) => this.logError(`session ${key.sessionId}: lease release: ${String(err)}`));
  }

  close(): void {
    this.stopBeating();
  }

  /** A row's holder that is gone from this host is taken from at once; a stale one after three missed beats. */
  private async claim(key: SessionKey): Promise<boolean> {
    const row = await this.index.getSession(key.workspaceId, key.sessionId);
    if (!row) return true; // no row to coordinate on (never the case for a session created through the API)
    const now = this.clock.now().getTime();
    const gone = row.owner !== null && row.owner !== PROCESS_ID && deadOnThisHost(row.owner) ? row.owner : undefined;
    return this.index.claimSession(key, PROCESS_ID, now, now - 3 * this.heartbeatMs, gone);
  }

  private async beat(): Promise<void> {
    const keys = [...this.held.values()].map((h) => h.key);
    const lost = await this.index.heartbeatSessions(PROCESS_ID, keys, this.clock.now().getTime()).catch((err: unknown) => {
      this.logError(`chat turn heartbeat: ${String(err)}`);
      return [];
    });
    for (const k of lost) {
      this.logError(`session ${k.sessionId}: another process took over the lease of a turn running here; stopping it`);
      this.held.get(sessionKey(k.workspaceId, k.sessionId))?.lost.abort();
    }
  }

  private stopBeating(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
