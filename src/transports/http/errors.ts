// Renders an AppError as the HTTP error envelope with its status.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorBody, type AppError } from "../../contract/errors.ts";

export function errorResponse(c: Context, err: AppError): Response {
  c.set("errorCode", err.code); // read by the metrics middleware
  return c.json(errorBody(err), err.status as ContentfulStatusCode);
}
