// The event streams as rows of the route table: what each sends, and how a client resumes it.
import { z } from "zod";
import { ErrorBody } from "./errors.ts";
import { GroundedAnswerRequest, GroundedAnswerResponse, TrajectoryStep } from "./grounded.ts";
import { stream } from "./route.ts";

/** run_complete: the same answer as POST /v1/grounded/answer, or the error envelope that route would have returned. */
const RunComplete = z.union([
  z.object({ status: z.literal("answered"), response: GroundedAnswerResponse }),
  z.object({ status: z.literal("error") }).extend(ErrorBody.shape),
]);

export const streamRoutes = {
  grounded_answer_stream: stream({
    scope: "read",
    method: "POST",
    path: "/v1/grounded/answer/stream",
    summary: "The grounded answer as server-sent events: run_started, step, run_complete (resume with Last-Event-ID)",
    input: GroundedAnswerRequest,
    events: { run_started: z.object({ trajectory_id: z.string() }), step: TrajectoryStep, run_complete: RunComplete },
    resume: "Resume after this event id (<trajectory_id>/<n>).",
  }),
};
