// Calls the service makes for a session go only where the operator allowed (issue 39): a fetch that refuses hosts the
// catalog does not name (redirects included), cuts a response past its size, and gives up after its time.

/** A refused or cut call, with the stable code a run's error carries (never the remote's own words). */
export class OutboundRefused extends Error {
  constructor(
    readonly code: "outbound_host_forbidden" | "outbound_response_too_large" | "outbound_too_many_redirects",
    message: string,
  ) {
    super(message);
    this.name = "OutboundRefused";
  }
}

export interface OutboundLimits {
  /** host[:port] values a request may go to. */
  hosts: readonly string[];
  maxResponseBytes: number;
}

const MAX_REDIRECTS = 3;

/** A fetch bounded by `limits`, aborted with `signal` (the run's stop or its time limit). */
export function boundedFetch(limits: OutboundLimits, signal: AbortSignal): typeof fetch {
  return async (input, init) => {
    let request = new Request(input, init);
    for (let hop = 0; ; hop++) {
      const url = new URL(request.url);
      if ((url.protocol !== "http:" && url.protocol !== "https:") || !limits.hosts.includes(url.host))
        throw new OutboundRefused(
          "outbound_host_forbidden",
          `${url.protocol}//${url.host} is not a host the catalog allows`,
        );
      const res = await fetch(request.clone(), {
        redirect: "manual",
        signal: AbortSignal.any([signal, request.signal]),
      });
      const location = res.headers.get("location");
      if (res.status < 300 || res.status > 399 || !location) return capped(res, limits.maxResponseBytes);
      if (hop >= MAX_REDIRECTS)
        throw new OutboundRefused("outbound_too_many_redirects", `more than ${MAX_REDIRECTS} redirects`);
      await res.body?.cancel();
      const next = new URL(location, url);
      // 307 and 308 keep the method and body; the others turn into a GET, as browsers do.
      const keep = (res.status === 307 || res.status === 308) && request.method !== "GET" && request.method !== "HEAD";
      request = new Request(
        next,
        keep
          ? { method: request.method, headers: request.headers, body: await request.clone().arrayBuffer() }
          : { method: "GET", headers: request.headers },
      );
    }
  };
}

/** The response with its body cut off (as an error) once it passes `max` bytes. */
function capped(res: Response, max: number): Response {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > max) {
    void res.body?.cancel();
    throw new OutboundRefused(
      "outbound_response_too_large",
      `the response declares ${declared} bytes; at most ${max} are read`,
    );
  }
  if (!res.body) return res;
  let seen = 0;
  const cut = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max)
        controller.error(new OutboundRefused("outbound_response_too_large", `the response passed ${max} bytes`));
      else controller.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(cut), {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

/** The OutboundRefused behind an error, however deep a client library wrapped it. */
export function refusalIn(err: unknown): OutboundRefused | null {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof OutboundRefused) return e;
  return null;
}
