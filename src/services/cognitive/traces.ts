// process() traces in the store, read back by GET /sdk/cognitive/traces/{trace_id}.
import type { CognitiveStore } from "../../ports/cognitive.ts";
import type { CognitiveTrace } from "../../contract/cognitive.ts";

/** The newest traces kept per workspace (older ones are dropped as new ones arrive). */
export const TRACES_KEPT = 1000;

/** process() traces in the store, read back by GET /sdk/cognitive/traces/{trace_id}: after a restart too, and from the CLI on the same data. */
export class TraceLog {
  constructor(
    private readonly store: Pick<CognitiveStore, "putTrace" | "getTrace">,
    private readonly now: () => number = Date.now,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  /** Stores the trace; a failed write (a locked or full disk) is logged, not thrown: the answer stands, only its read-back is lost. */
  async put(r: CognitiveTrace, workspaceId: string): Promise<void> {
    try {
      await this.store.putTrace(workspaceId, r.trace_id, this.now(), r, TRACES_KEPT);
    } catch (err) {
      this.log(`trace ${r.trace_id}: not stored (${(err as Error).message})`);
    }
  }

  /** The trace, only within `workspaceId` (a caller never reads another workspace's trace). */
  async get(id: string, workspaceId: string): Promise<CognitiveTrace | undefined> {
    return (await this.store.getTrace(workspaceId, id)) as CognitiveTrace | undefined; // written by put() only
  }
}
