// The traffic the PostgreSQL restart test keeps up against its replicas: ingests, recalls, chat turns and background
// runs, each on a fresh connection (no keep-alive race to blame), each outcome sorted as acknowledged, refused with 503
// store_unavailable and Retry-After, or lost (any other answer, a cut connection, a stream without its end).
import { request } from "node:http";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { parseSse, type SseEvent } from "../../src/client/sse.ts";

export interface Target {
  url: string;
  token: string;
}

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Readable;
}

/** One request on its own connection. */
export function call(t: Target, path: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${t.url}${path}`,
      {
        method: payload ? "POST" : "GET",
        agent: false,
        headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
      },
      (res) =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: (res.headers["retry-after"] as string | undefined) ?? null,
          body: res,
        }),
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const text = async (r: Readable) => {
  let out = "";
  for await (const d of r) out += (d as Buffer).toString();
  return out;
};

export const json = async <T>(a: Answer): Promise<T> => JSON.parse(await text(a.body)) as T;

/** The server-sent events of an answer, to its end. */
export async function sseOf(a: Answer): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const e of parseSse(Readable.toWeb(a.body) as ReadableStream<Uint8Array>)) events.push(e);
  return events;
}

export interface Tally {
  acked: number;
  unavailable: number;
  lost: string[];
}

export interface Load {
  ingests: Tally & { paths: string[] };
  recalls: Tally;
  turns: Tally & { sessions: string[]; seen: SseEvent[]; errorEnds: number };
  runs: Tally & { sessions: string[] };
}

/** A 503 store_unavailable with Retry-After, or null when the answer is something else. */
async function refused(a: Answer): Promise<string | null> {
  if (a.status !== 503) return `status ${a.status}: ${(await text(a.body)).slice(0, 200)}`;
  const body = await json<{ error?: { code?: string } }>(a);
  return body.error?.code === "store_unavailable" && a.retryAfter !== null
    ? null
    : `503 without store_unavailable and Retry-After: ${JSON.stringify(body)}`;
}

/** Sorts one attempt: `ok` is what an acknowledged answer does; a throw or an unexpected answer is lost. */
async function attempt(
  tally: Tally,
  what: string,
  send: () => Promise<Answer>,
  ok: (a: Answer) => Promise<void>,
): Promise<void> {
  try {
    const a = await send();
    if (a.status === 200) {
      await ok(a);
      tally.acked++;
      return;
    }
    const wrong = await refused(a);
    if (wrong) tally.lost.push(`${what}: ${wrong}`);
    else tally.unavailable++;
  } catch (err) {
    tally.lost.push(`${what}: ${(err as Error).message}`);
  }
}

/** Runs every kind of traffic against the targets, one request of each kind at a time per target, until `stop`. */
export function startLoad(targets: readonly Target[]): { load: Load; stop(): Promise<void> } {
  const load: Load = {
    ingests: { acked: 0, unavailable: 0, lost: [], paths: [] },
    recalls: { acked: 0, unavailable: 0, lost: [] },
    turns: { acked: 0, unavailable: 0, lost: [], sessions: [], seen: [], errorEnds: 0 },
    runs: { acked: 0, unavailable: 0, lost: [], sessions: [] },
  };
  let stopped = false;
  let n = 0;
  const pause = () => new Promise((r) => setTimeout(r, 20));
  const loop = async (step: () => Promise<void>) => {
    while (!stopped) await step().then(pause);
  };
  const loops = targets.flatMap((t) => [
    loop(() => {
      const path = `notes/restart-${n++}.md`;
      return attempt(
        load.ingests,
        "ingest",
        () =>
          call(t, "/v1/memory/ingest", { source_path: path, content: `# R\n\nThe restart ledger entry ${path}.\n` }),
        async (a) => {
          await text(a.body);
          load.ingests.paths.push(path);
        },
      );
    }),
    loop(() =>
      attempt(
        load.recalls,
        "recall",
        () => call(t, "/v1/memory/recall", { query: "restart ledger", mode: "lexical" }),
        async (a) => void (await text(a.body)),
      ),
    ),
    loop(async () => {
      let sid: string | null = null;
      await attempt(
        load.turns,
        "chat session",
        () => call(t, "/chat/sessions", {}),
        async (a) => void (sid = (await json<{ session_id: string }>(a)).session_id),
      );
      if (!sid) return;
      load.turns.sessions.push(sid);
      await attempt(
        load.turns,
        "chat turn",
        () => call(t, `/chat/sessions/${sid}/messages`, { message: "What does the restart ledger say?" }),
        async (a) => {
          const events = await sseOf(a);
          const last = events.at(-1)?.event;
          if (last !== "completed" && last !== "error")
            throw new Error(`the stream was cut after ${events.map((e) => e.event).join(",")}`);
          if (last === "error") load.turns.errorEnds++;
          load.turns.seen.push(...events.filter((e) => e.id && e.event !== "session"));
        },
      );
    }),
    loop(() =>
      attempt(
        load.runs,
        "background run",
        () => call(t, "/sessions", { task: "What does the restart ledger say?", approval_mode: "never" }),
        async (a) => {
          load.runs.sessions.push((await json<{ session: { session_id: string } }>(a)).session.session_id);
        },
      ),
    ),
  ]);
  return {
    load,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** `n` immediate-stop restarts of PostgreSQL, 1.5 s of load before each and after the last, 0.3 s down each time. */
export async function restartCycles(cluster: { crash(): void; resume(): void }, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await sleep(1_500);
    cluster.crash();
    await sleep(300);
    cluster.resume();
  }
  await sleep(1_500);
}
