// Renders an AppError as the HTTP error envelope with its status.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorBody, type AppError } from "../../contract/errors.ts";

export function errorResponse(c: Context, err: AppError): Response {
  c.set("errorCode", err.code); // read by the metrics middleware
  // A 429 or 503 says when to come back, in the header as well as in details.
  const retry = (err.details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
  if (typeof retry === "number") c.header("Retry-After", String(Math.ceil(retry)));
  return c.json(errorBody(err), err.status as ContentfulStatusCode);
}
