// The JSON request body every POST route reads: 415 for other content types, 413 past limits.maxBodyBytes (declared or
// counted while reading), 400 malformed_json for bad syntax. On Node it reads the socket's IncomingMessage directly: going
// through the Web Request (as a body-limit middleware does) builds a Request and a ReadableStream per call, which was
// the largest single cost of a small recall over HTTP.
import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import { AppError, bodyTooLarge } from "../../contract/errors.ts";
import { limits } from "../../contract/limits.ts";

export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) throw new AppError("unsupported_media_type", "send Content-Type: application/json");
  if (Number(c.req.header("content-length") ?? 0) > limits.maxBodyBytes) throw bodyTooLarge();
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const text = await readLimited(incoming ?? (c.req.raw.body as unknown as AsyncIterable<Uint8Array> | null));
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new AppError("malformed_json", `body is not valid JSON: ${(err as Error).message}`);
  }
}

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
