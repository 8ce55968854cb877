// POST /v1/grounded/answer/stream as a stream of the event log: run_started, a step per stage, run_complete; resumable by id.
import { randomUUID } from "node:crypto";
import { AppError, errorBody } from "../../contract/errors.ts";
import type { GroundedAnswerRequest } from "../../contract/grounded.ts";
import type { StreamMessage } from "../../contract/route.ts";
import type { Clock } from "../../ports/clock.ts";
import type { EventLog, StreamEvent } from "../../ports/event-log.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { followStream } from "../streams/follow.ts";
import type { GroundedService } from "./grounded.ts";

/** Event ids are `<trajectory_id>/<n>`, n counting the run's events from 0: a resumed client gets exactly what it missed. */
const EVENT_ID = /^(traj_[0-9a-f-]{36})\/(\d+)$/;
const isLast = (e: StreamEvent) => e.type === "run_complete";
const toMessage = (e: StreamEvent): StreamMessage => ({ id: `${e.stream}/${e.seq - 1}`, event: e.type, data: e.data });

export class AnswerStreams {
  /** Runs going on in this process: a run logged without its end and not here was cut off by a restart. */
  private readonly running = new Set<string>();

  constructor(
    private readonly grounded: GroundedService,
    private readonly log: EventLog,
    private readonly clock: Clock,
    private readonly logError: (msg: string) => void,
  ) {}

  /** A new run (it goes on, and is logged, whether or not anyone listens), or the rest of one after `lastEventId`. */
  async open(
    call: CallContext,
    body: GroundedAnswerRequest | null,
    lastEventId: string | null,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<StreamMessage>> {
    if (lastEventId !== null) return this.resume(call, lastEventId, signal);
    const trajectoryId = `traj_${randomUUID()}`;
    this.running.add(trajectoryId);
    void this.run(call, body!, trajectoryId).finally(() => this.running.delete(trajectoryId));
    return this.follow(call, trajectoryId, 0, signal);
  }

  private async resume(
    call: CallContext,
    lastEventId: string,
    signal?: AbortSignal,
  ): Promise<AsyncIterable<StreamMessage>> {
    const m = EVENT_ID.exec(lastEventId.trim());
    if (!m) throw new AppError("invalid_request", "Last-Event-ID must be '<trajectory_id>/<n>' as sent by this stream");
    const [trajectoryId, n] = [m[1]!, Number(m[2])];
    const ws = call.workspaceId;
    // Ids are handed out only after their event is logged (in this workspace), so an id with no event was never sent.
    const [seen] = await this.log.readStream(ws, trajectoryId, n, 1);
    if (!seen) throw new AppError("not_found", `no event ${n} of an answer run '${trajectoryId}' in this workspace`);
    if (isLast(seen)) return (async function* () {})(); // after the run's last event nothing is missing
    await this.endIfCutOff(ws, trajectoryId);
    return this.follow(call, trajectoryId, n + 1, signal);
  }

  /** A run whose process stopped before its end gets its end now (an error), so its followers finish too. */
  private async endIfCutOff(workspaceId: string, trajectoryId: string): Promise<void> {
    if (
      this.running.has(trajectoryId) ||
      (await this.log.readStream(workspaceId, trajectoryId, 0, 10_000)).some(isLast)
    )
      return;
    const e = new AppError("internal_error", "the run was cut off (the service stopped before it finished); ask again");
    await this.log.appendStream(workspaceId, trajectoryId, [
      { type: "run_complete", at: this.clock.now().getTime(), data: { status: "error", ...errorBody(e) } },
    ]);
  }

  private async *follow(
    call: CallContext,
    trajectoryId: string,
    afterSeq: number,
    signal?: AbortSignal,
  ): AsyncGenerator<StreamMessage> {
    for await (const e of followStream(this.log, call.workspaceId, trajectoryId, { afterSeq, isLast, signal }))
      yield toMessage(e);
  }

  /** Runs the answer, logging each event as it happens; a failure ends the run with run_complete status error. */
  private async run(call: CallContext, body: GroundedAnswerRequest, trajectoryId: string): Promise<void> {
    let logged: Promise<unknown> = Promise.resolve();
    // In order, and each on its own: one failed append (a busy database) must not silence the rest, least of all the end.
    const emit = (type: string, data: unknown) => {
      const draft = { type, at: this.clock.now().getTime(), data };
      logged = logged
        .then(() => this.log.appendStream(call.workspaceId, trajectoryId, [draft]))
        .catch((err: unknown) =>
          this.logError(`grounded stream ${trajectoryId}: ${type} not logged (${(err as Error).message})`),
        );
    };
    emit("run_started", { trajectory_id: trajectoryId });
    try {
      const response = await this.grounded.answer(call, body, { onStep: (step) => emit("step", step) }, trajectoryId);
      emit("run_complete", { status: "answered", response });
    } catch (err) {
      if (!(err instanceof AppError))
        this.logError(`grounded stream failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const e = err instanceof AppError ? err : new AppError("internal_error", "internal error");
      emit("run_complete", { status: "error", ...errorBody(e) });
    }
    await logged;
  }
}
