// Renders an AppError as the HTTP error envelope with its status.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorBody, STORE_RETRY_SECONDS, type AppError } from "../../contract/errors.ts";

export function errorResponse(c: Context, err: AppError): Response {
  c.set("errorCode", err.code); // read by the metrics middleware
  if (err.code === "store_unavailable") c.header("Retry-After", String(STORE_RETRY_SECONDS));
  return c.json(errorBody(err), err.status as ContentfulStatusCode);
}
