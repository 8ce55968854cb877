// The bench's HTTP client: one JSON POST with a bearer token (Node's fetch, keep-alive by default).

/** POSTs JSON and returns the parsed body; throws on a non-2xx status. */
export async function postJson(url: string, token: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as unknown;
  if (!res.ok) throw new Error(`bench: ${url} -> ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}
