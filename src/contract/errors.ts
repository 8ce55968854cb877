// One error type with stable codes; HTTP renders {"error": {...}}, MCP returns isError results.
import { z } from "zod";
import { limits } from "./limits.ts";

/** Every code a client may branch on, with the HTTP status it maps to. */
export const errorStatus = {
  malformed_json: 400,
  malformed_http: 400,
  request_timeout: 408,
  headers_too_large: 431,
  invalid_request: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  binary_content: 422,
  unauthorized: 401,
  token_revoked: 401,
  actor_forbidden: 403,
  workspace_forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  turn_in_progress: 409,
  awaiting_approval: 409,
  approval_settled: 409,
  invalid_transition: 409,
  event_not_in_session: 400,
  wrong_stage: 409,
  evidence_not_found: 422,
  supersedes_not_found: 422,
  already_superseded: 409,
  self_review_forbidden: 403,
  reviewer_required: 403,
  invalid_cursor: 400,
  insufficient_evidence: 422,
  engine_disabled: 400,
  catalog_entry_required: 400,
  unknown_agent: 400,
  host_not_allowed: 400,
  sandbox_unavailable: 400,
  rate_limited: 429,
  too_many_streams: 429,
  internal_error: 500,
  store_unavailable: 503,
} as const;

/** Seconds a client should wait before retrying a 503 store_unavailable (sent as Retry-After). */
export const STORE_RETRY_SECONDS = 2;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "AppError";
    this.status = errorStatus[code];
  }
}

export const ErrorBody = z
  .object({
    error: z.object({
      code: z
        .enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]])
        .describe("Stable machine-readable error code."),
      message: z.string().describe("Human-readable explanation."),
      details: z.unknown().optional().describe("Structured context, e.g. the fields that failed validation."),
    }),
  })
  .describe("Error envelope returned with every 4xx/5xx response.");
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Turns a zod failure into the invalid_request error clients see; union failures list each branch's field issues. */
/** A request body over limits.maxBodyBytes, whoever counted it (the table's JSON reader or MCP's limit). */
export function bodyTooLarge(): AppError {
  return new AppError("payload_too_large", `request body exceeds ${limits.maxBodyBytes} bytes`);
}

export function validationError(error: z.ZodError): AppError {
  const issues = flatten(error.issues, []);
  const first = issues[0];
  const message =
    error.issues[0]?.code === "invalid_union"
      ? (error.issues[0].message ?? "invalid request")
      : (first?.message ?? "invalid request");
  const where = first?.path && error.issues[0]?.code !== "invalid_union" ? `${first.path}: ` : "";
  return new AppError("invalid_request", `${where}${message}`, { issues });
}

type Flat = { path: string; message: string; code: string };

function flatten(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): Flat[] {
  return issues.flatMap((i): Flat[] => {
    const path = [...prefix, ...i.path];
    const nested = i.code === "invalid_union" ? i.errors.flat() : [];
    const unknownKeysOnly = nested.length > 0 && nested.every((n) => n.code === "unrecognized_keys");
    if (nested.length === 0 || unknownKeysOnly)
      return [{ path: path.map(String).join("."), message: i.message, code: i.code }];
    return flatten(
      nested.filter((n) => n.code !== "unrecognized_keys"),
      path,
    );
  });
}

/** Any thrown value as an AppError: validation failures keep their details; unknown errors are logged and become 500 internal_error. */
export function toAppError(err: unknown, log: (msg: string) => void): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof z.ZodError) return validationError(err);
  log(`unhandled error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return new AppError("internal_error", "internal error");
}

/** The wire envelope of an error, as HTTP bodies and MCP isError results carry it. */
export function errorBody(err: AppError): ErrorBody {
  return {
    error: { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) },
  };
}
