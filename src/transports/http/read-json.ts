// The JSON request body every POST route reads: 415 for other content types, 400 malformed_json for bad syntax.
import type { Context } from "hono";
import { AppError } from "../../contract/errors.ts";

export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) throw new AppError("unsupported_media_type", "send Content-Type: application/json");
  const text = await c.req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new AppError("malformed_json", `body is not valid JSON: ${(err as Error).message}`);
  }
}
