// The JSON request body every POST route reads: 415 for other content types, 413 past limits.maxBodyBytes (declared or
// counted while reading), 400 malformed_json for bad syntax. An empty body is `{}` whatever its content type (issue 41:
// `curl -X POST .../pause` sends none), so the route's schema decides, as it would for `{}`. On Node it reads the
// socket's IncomingMessage directly: going through the Web Request (as a body-limit middleware does) builds a Request and
// a ReadableStream per call, which was the largest single cost of a small recall over HTTP.
import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { AppError, bodyTooLarge } from "../../contract/errors.ts";
import { limits } from "../../contract/limits.ts";

export async function readJson(c: Context): Promise<unknown> {
  const isJson = /^application\/(.+\+)?json\b/i.test(c.req.header("content-type") ?? "");
  const declared = c.req.header("content-length");
  if (Number(declared ?? 0) > limits.maxBodyBytes) throw bodyTooLarge();
  // A declared non-empty body of another type is refused unread; an undeclared length is read to learn whether it is empty.
  if (!isJson && Number(declared ?? 0) > 0) throw unsupported();
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const text = await readLimited(incoming ?? (c.req.raw.body as unknown as AsyncIterable<Uint8Array> | null));
  if (text.trim() === "") return {};
  if (!isJson) throw unsupported();
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new AppError("malformed_json", `body is not valid JSON: ${(err as Error).message}`);
  }
}

const unsupported = () => new AppError("unsupported_media_type", "send Content-Type: application/json (or no body)");

async function readLimited(body: AsyncIterable<Uint8Array> | null): Promise<string> {
  if (!body) return "";
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of body) {
    size += part.byteLength;
    if (size > limits.maxBodyBytes) throw bodyTooLarge();
    parts.push(part);
  }
  return Buffer.concat(parts).toString("utf8");
}
