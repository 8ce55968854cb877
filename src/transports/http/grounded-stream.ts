// POST /v1/grounded/answer/stream: the answer run as SSE (run_started, step, run_complete), resumable by Last-Event-ID.
import type { Context } from "hono";
import { streamSSE, type SSEStreamingApi } from "hono/streaming";
import { AppError } from "../../contract/errors.ts";
import type { GroundedAnswerRequest } from "../../contract/grounded.ts";
import type { CallContext } from "../../services/context.ts";
import type { AuditService } from "../../services/audit.ts";
import type { GroundedService } from "../../services/grounded.ts";

interface StreamEvent {
  event: "run_started" | "step" | "run_complete";
  data: unknown;
}

/** Event ids are `<trajectory_id>/<n>`: n counts events of that run, so a resumed client gets exactly what it missed. */
export function groundedStream(c: Context, call: CallContext, body: GroundedAnswerRequest | null, grounded: GroundedService, audit: AuditService): Response {
  const resume = parseLastEventId(c.req.header("last-event-id"));
  if (!body && !resume) throw new AppError("invalid_request", "Last-Event-ID must be '<trajectory_id>/<n>' as sent by this stream");
  if (resume) audit.tail(call, { trajectory_id: resume.trajectoryId, limit: 1 }); // 404 before streaming when the run is unknown here
  return streamSSE(c, async (stream) => {
    if (resume) return replay(stream, call, audit, resume);
    let n = 0;
    const send = (e: StreamEvent) => stream.writeSSE({ id: `${currentId}/${n++}`, event: e.event, data: JSON.stringify(e.data) }).catch(() => {});
    let currentId = "";
    try {
      const response = await grounded.answer(call, body ?? { question: "" }, {
        onStart: (id) => {
          currentId = id;
          void send({ event: "run_started", data: { trajectory_id: id } });
        },
        onStep: (step) => void send({ event: "step", data: step }),
      });
      await send({ event: "run_complete", data: { status: "answered", response } });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await send({ event: "run_complete", data: { status: "error", error: { code: err.code, message: err.message, details: err.details } } });
    }
  });
}

/** Rebuilds the run's events from the audit log (the authoritative record) and sends those after the client's last id. */
async function replay(stream: SSEStreamingApi, call: CallContext, audit: AuditService, from: { trajectoryId: string; n: number }): Promise<void> {
  const { events } = audit.tail(call, { trajectory_id: from.trajectoryId, limit: 1000 });
  const rebuilt: StreamEvent[] = [];
  for (const e of events) {
    if (e.type === "grounded.request") rebuilt.push({ event: "run_started", data: { trajectory_id: from.trajectoryId } });
    else if (e.type.startsWith("grounded.step.")) rebuilt.push({ event: "step", data: e.payload });
    else if (e.type === "grounded.outcome") {
      const outcome = e.payload as { outcome: string; response?: unknown; error?: unknown };
      rebuilt.push({ event: "run_complete", data: outcome.outcome === "answered" ? { status: "answered", response: outcome.response } : { status: "error", error: outcome.error } });
    }
  }
  for (const [i, e] of rebuilt.entries()) if (i > from.n) await stream.writeSSE({ id: `${from.trajectoryId}/${i}`, event: e.event, data: JSON.stringify(e.data) });
}

function parseLastEventId(header: string | undefined): { trajectoryId: string; n: number } | null {
  const m = /^(traj_[0-9a-f-]{36})\/(\d+)$/.exec(header?.trim() ?? "");
  return m ? { trajectoryId: m[1]!, n: Number(m[2]) } : null;
}
