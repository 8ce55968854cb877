// Maps any thrown value to the error envelope; unknown errors are logged and become 500 internal_error.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { z } from "zod";
import { AppError, validationError, type ErrorBody } from "../../contract/errors.ts";

export function toAppError(err: unknown, log: (msg: string) => void): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof z.ZodError) return validationError(err);
  log(`unhandled error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return new AppError("internal_error", "internal error");
}

export function errorResponse(c: Context, err: AppError): Response {
  c.set("errorCode", err.code); // read by the metrics middleware
  const body: ErrorBody = { error: { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) } };
  return c.json(body, err.status as ContentfulStatusCode);
}
