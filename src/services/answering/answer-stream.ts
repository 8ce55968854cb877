// POST /v1/grounded/answer/stream as a stream of the event log: run_started, a step per stage, run_complete; resumable by id.
import { randomUUID } from "node:crypto";
import { AppError, errorBody } from "../../contract/errors.ts";
import type { GroundedAnswerRequest } from "../../contract/grounded.ts";
import type { StreamMessage } from "../../contract/route.ts";
import type { Clock } from "../../ports/clock.ts";
import type { EventLog, StreamEvent } from "../../ports/event-log.ts";
import type { CallContext } from "../context.ts";
import { followStream } from "../streams/follow.ts";
import type { GroundedService } from "./grounded.ts";

/** Event ids are `<trajectory_id>/<n>`, n counting the run's events from 0: a resumed client gets exactly what it missed. */
const EVENT_ID = /^(traj_[0-9a-f-]{36})\/(\d+)$/;
const isLast = (e: StreamEvent) => e.type === "run_complete";
const toMessage = (e: StreamEvent): StreamMessage => ({ id: `${e.stream}/${e.seq - 1}`, event: e.type, data: e.data });

export class AnswerStreams {
  constructor(
    private readonly grounded: GroundedService,
    private readonly log: EventLog,
    private readonly clock: Clock,
    private readonly logError: (msg: string) => void,
  ) {}

  /** A new run (it goes on, and is logged, whether or not anyone listens), or the rest of one after `lastEventId`. */
  async open(call: CallContext, body: GroundedAnswerRequest | null, lastEventId: string | null): Promise<AsyncIterable<StreamMessage>> {
    if (lastEventId !== null) return this.resume(call, lastEventId);
    const trajectoryId = `traj_${randomUUID()}`;
    void this.run(call, body!, trajectoryId);
    return this.follow(call, trajectoryId, 0);
  }

  private async resume(call: CallContext, lastEventId: string): Promise<AsyncIterable<StreamMessage>> {
    const m = EVENT_ID.exec(lastEventId.trim());
    if (!m) throw new AppError("invalid_request", "Last-Event-ID must be '<trajectory_id>/<n>' as sent by this stream");
    const [trajectoryId, n] = [m[1]!, Number(m[2])];
    const ws = call.workspaceId;
    // The run's events are in this workspace's log from its first one on, so an unknown or foreign run is a plain 404.
    if ((await this.log.readStream(ws, trajectoryId, 0, 1)).length === 0) throw new AppError("not_found", `no answer run '${trajectoryId}' in this workspace`);
    const [seen] = await this.log.readStream(ws, trajectoryId, n, 1);
    if (!seen && (await this.finished(ws, trajectoryId, n))) throw new AppError("not_found", `run ${trajectoryId} sent no event ${n}`);
    // After the run's last event nothing is missing: the stream opens and ends.
    return seen && isLast(seen) ? (async function* () {})() : this.follow(call, trajectoryId, n + 1);
  }

  /** True when the run has ended (it holds at most n events here, so one read covers it). */
  private async finished(workspaceId: string, trajectoryId: string, n: number): Promise<boolean> {
    return (await this.log.readStream(workspaceId, trajectoryId, 0, Math.min(n + 1, 10_000))).some(isLast);
  }

  private async *follow(call: CallContext, trajectoryId: string, afterSeq: number): AsyncGenerator<StreamMessage> {
    for await (const e of followStream(this.log, call.workspaceId, trajectoryId, afterSeq, isLast)) yield toMessage(e);
  }

  /** Runs the answer, logging each event as it happens; a failure ends the run with run_complete status error. */
  private async run(call: CallContext, body: GroundedAnswerRequest, trajectoryId: string): Promise<void> {
    let logged: Promise<unknown> = Promise.resolve();
    const emit = (type: string, data: unknown) => {
      const draft = { type, at: this.clock.now().getTime(), data };
      logged = logged.then(() => this.log.appendStream(call.workspaceId, trajectoryId, [draft]));
    };
    emit("run_started", { trajectory_id: trajectoryId });
    try {
      const response = await this.grounded.answer(call, body, { onStep: (step) => emit("step", step) }, trajectoryId);
      emit("run_complete", { status: "answered", response });
    } catch (err) {
      if (!(err instanceof AppError)) this.logError(`grounded stream failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const e = err instanceof AppError ? err : new AppError("internal_error", "internal error");
      emit("run_complete", { status: "error", ...errorBody(e) });
    }
    await logged.catch((err: unknown) => this.logError(`grounded stream ${trajectoryId}: not logged (${(err as Error).message})`));
  }
}
