// POST /v1/grounded/answer/stream: the answer run as SSE (run_started, step, run_complete), resumable by Last-Event-ID.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { AppError } from "../../contract/errors.ts";
import type { GroundedAnswerRequest } from "../../contract/grounded.ts";
import type { CallContext } from "../../services/context.ts";
import type { AuditService } from "../../services/audit/audit.ts";
import type { GroundedService } from "../../services/answering/grounded.ts";
import { LiveRuns, type StreamEvent } from "./live-runs.ts";

const live = new LiveRuns();

/** Event ids are `<trajectory_id>/<n>`: n counts events of that run, so a resumed client gets exactly what it missed. */
export async function groundedStream(
  c: Context,
  call: CallContext,
  body: GroundedAnswerRequest | null,
  grounded: GroundedService,
  audit: AuditService,
  log: (msg: string) => void,
): Promise<Response> {
  const resume = parseLastEventId(c.req.header("last-event-id"));
  if (!body && !resume) throw new AppError("invalid_request", "Last-Event-ID must be '<trajectory_id>/<n>' as sent by this stream");
  // A finished run is rebuilt before any stream opens: unknown here (404 from the log) or an id it never sent is a plain 404.
  const finished = resume && !live.has(resume.trajectoryId, call.workspaceId) ? await fromLog(call, audit, resume.trajectoryId) : null;
  const sent = resume ? (finished?.length ?? live.sentBy(resume.trajectoryId)) : undefined;
  if (resume && sent !== undefined && resume.n >= sent) throw new AppError("not_found", `run ${resume.trajectoryId} sent events 0 to ${sent - 1}, not ${resume.n}`);
  return streamSSE(c, async (stream) => {
    const write = (id: string, n: number, e: StreamEvent) => stream.writeSSE({ id: `${id}/${n}`, event: e.event, data: JSON.stringify(e.data) });
    if (resume) {
      const source = finished ? finished.entries() : live.follow(resume.trajectoryId, resume.n);
      for await (const [n, e] of source) if (n > resume.n) await write(resume.trajectoryId, n, e);
      return;
    }
    let id = "";
    let written: Promise<unknown> = Promise.resolve();
    const emit = (e: StreamEvent) => {
      const n = live.push(id, e);
      // Writes queue in order; a vanished client must not stop the run: it is recorded and resumable.
      written = written.then(() => write(id, n, e)).catch(() => {});
    };
    try {
      const response = await grounded.answer(call, body!, {
        onStart: (trajectoryId) => {
          id = trajectoryId;
          live.start(id, call.workspaceId);
          emit({ event: "run_started", data: { trajectory_id: id } });
        },
        onStep: (step) => emit({ event: "step", data: step }),
      });
      emit({ event: "run_complete", data: { status: "answered", response } });
    } catch (err) {
      if (!(err instanceof AppError)) log(`grounded stream failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const e = err instanceof AppError ? err : new AppError("internal_error", "internal error");
      if (id) emit({ event: "run_complete", data: { status: "error", error: { code: e.code, message: e.message, details: e.details } } });
    } finally {
      live.finish(id);
      await written;
    }
  });
}

/** Rebuilds a finished run's events from the audit log (the authoritative record); 404 when this workspace has no such run. */
async function fromLog(call: CallContext, audit: AuditService, trajectoryId: string): Promise<StreamEvent[]> {
  const { events } = await audit.tail(call, { trajectory_id: trajectoryId, limit: 1000 });
  const rebuilt: StreamEvent[] = [];
  for (const e of events) {
    if (e.type === "grounded.request") rebuilt.push({ event: "run_started", data: { trajectory_id: trajectoryId } });
    else if (e.type.startsWith("grounded.step.")) rebuilt.push({ event: "step", data: e.payload });
    else if (e.type === "grounded.outcome") {
      const outcome = e.payload as { outcome: string; response?: unknown; error?: unknown };
      rebuilt.push({ event: "run_complete", data: outcome.outcome === "answered" ? { status: "answered", response: outcome.response } : { status: "error", error: outcome.error } });
    }
  }
  return rebuilt;
}

function parseLastEventId(header: string | undefined): { trajectoryId: string; n: number } | null {
  const m = /^(traj_[0-9a-f-]{36})\/(\d+)$/.exec(header?.trim() ?? "");
  return m ? { trajectoryId: m[1]!, n: Number(m[2]) } : null;
}
