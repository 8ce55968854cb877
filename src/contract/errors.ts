// One error type with stable codes; HTTP renders {"error": {...}}, MCP returns isError results.
import { z } from "zod";

/** Every code a client may branch on, with the HTTP status it maps to. */
export const errorStatus = {
  malformed_json: 400,
  invalid_request: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  binary_content: 422,
  unauthorized: 401,
  token_revoked: 401,
  actor_forbidden: 403,
  workspace_forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_cursor: 400,
  insufficient_evidence: 422,
  internal_error: 500,
} as const;

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
      code: z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]).describe("Stable machine-readable error code."),
      message: z.string().describe("Human-readable explanation."),
      details: z.unknown().optional().describe("Structured context, e.g. the fields that failed validation."),
    }),
  })
  .describe("Error envelope returned with every 4xx/5xx response.");
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Turns a zod failure into the invalid_request error clients see. */
export function validationError(error: z.ZodError): AppError {
  const issues = error.issues.map((i) => ({ path: i.path.join("."), message: i.message, code: i.code }));
  const first = issues[0];
  const where = first && first.path ? `${first.path}: ` : "";
  return new AppError("invalid_request", `${where}${first?.message ?? "invalid request"}`, { issues });
}
