// Wire format of the OpenAI-compatible embeddings API: endpoint resolution and response checking.
import { z } from "zod";

const ResponseSchema = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
});

/** Resolves the endpoint from a server root ("http://h:11434"), a ".../v1" base, or the full URL. */
export function embeddingsUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`invalid embeddings base URL: ${JSON.stringify(baseUrl)}`);
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (path.endsWith("/embeddings")) url.pathname = path;
  else url.pathname = path.endsWith("/v1") ? `${path}/embeddings` : `${path}/v1/embeddings`;
  return url;
}

/**
 * Validates a `{data: [{index, embedding}]}` body and returns the embeddings in input order
 * (servers may return them in any order). `dimensions` 0 accepts any (equal) length.
 * Throws an Error whose message describes the problem without echoing the body.
 */
export function parseEmbeddingsResponse(json: unknown, expected: number, dimensions: number): number[][] {
  const parsed = ResponseSchema.safeParse(json);
  if (!parsed.success) throw new Error(`unexpected response shape: ${z.prettifyError(parsed.error)}`);
  const data = [...parsed.data.data].sort((a, b) => a.index - b.index);
  if (data.length !== expected || data.some((d, i) => d.index !== i)) {
    const got = parsed.data.data.map((d) => d.index).join(",");
    throw new Error(`expected indices 0..${expected - 1}, got [${got}]`);
  }
  const size = dimensions === 0 ? (data[0]?.embedding.length ?? 0) : dimensions;
  for (const d of data) {
    if (d.embedding.length !== size) {
      throw new Error(`got a ${d.embedding.length}-dimensional embedding, expected ${size}`);
    }
  }
  return data.map((d) => d.embedding);
}
