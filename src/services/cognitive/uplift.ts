// The uplift read: the stack's counters in a window for the caller's workspace, with ablation figures and tuner decisions.
import type { UpliftRequest, UpliftResponse } from "../../contract/uplift.ts";
import { UpliftRequest as UpliftSchema } from "../../contract/uplift.ts";
import type { CognitivePipeline } from "../../cognitive/pipeline.ts";
import { cognitiveSnapshot } from "../../cognitive/stats.ts";
import { parseDuration } from "../../contract/duration.ts";
import type { Clock } from "../../ports/clock.ts";
import type { CognitiveStore } from "../../ports/cognitive.ts";
import type { CallContext } from "../../ports/call-context.ts";

const HOUR = 3_600_000;

export class UpliftService {
  constructor(
    private readonly pipeline: CognitivePipeline,
    private readonly store: CognitiveStore,
    private readonly clock: Clock,
  ) {}

  async uplift(call: CallContext, input: UpliftRequest): Promise<UpliftResponse> {
    const req = UpliftSchema.parse(input);
    const window = req.since === undefined ? null : parseDuration(req.since);
    // Counters are bucketed by hour: the window starts on the hour that holds its start, so a bucket is never half-counted.
    const since = window === null ? undefined : Math.floor((this.clock.now().getTime() - window) / HOUR) * HOUR;
    const snap = await cognitiveSnapshot(this.pipeline, this.store, {
      ...(since === undefined ? {} : { since }),
      workspaceId: call.workspaceId,
    });
    return {
      since: since === undefined ? null : new Date(since).toISOString(),
      layers: snap.layers.map((l) => ({
        id: l.id,
        job: l.job,
        enabled: l.enabled,
        counters: l.counters,
        uplift: l.uplift,
        stress_uplift: l.stress_uplift,
      })),
      // The snapshot was read for the caller's workspace alone, so its breakdown has (at most) that one entry, named.
      by_workspace: Object.fromEntries(
        Object.values(snap.by_workspace).map((layers) => [
          call.workspaceName,
          layers as Record<string, Record<string, number>>,
        ]),
      ),
      tuner: {
        tried: snap.tuner.tried,
        kept: snap.tuner.kept,
        decisions: snap.tuner.decisions.map((d) => ({ ...d, at: new Date(d.at).toISOString() })),
      },
      ablation: snap.ablation && { ...snap.ablation, at: new Date(snap.ablation.at).toISOString() },
      stress: snap.stress && { ...snap.stress, at: new Date(snap.stress.at).toISOString() },
    };
  }
}
