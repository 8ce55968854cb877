// Issue 41: a POST with no body (curl -X POST) or an empty one is `{}` over a real socket, with or without a content type;
// malformed JSON is still 400 and a non-empty body of another type still 415.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BackgroundSessionDetail } from "../../src/contract/background.ts";
import { listen, type RunningServer } from "../../src/transports/http/serve.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { startBackground, waitFor } from "../sessions/background-support.ts";

let svc: TestService;
let server: RunningServer;

beforeAll(async () => {
  svc = await startTestService();
  server = await listen(svc.app, "127.0.0.1", 0);
});
afterAll(async () => {
  await server.close();
  await svc.cleanup();
});

const post = (path: string, headers: Record<string, string>, body?: string) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${svc.token}`, ...headers },
    ...(body === undefined ? {} : { body }),
  });
const statusOf = async (res: Response) => {
  const body = (await res.json()) as BackgroundSessionDetail & { error?: { code: string } };
  return [res.status, body.error?.code ?? body.session.status];
};

describe("body-less POSTs", () => {
  it("pause, resume and cancel take no body, an empty body, or an empty JSON body", async () => {
    const s = await startBackground(svc, {
      engine: "command",
      command: ["sh", "-c", "sleep 20"],
      approval_mode: "never",
      task: "long",
    });
    const sid = s.session.session_id;
    await waitFor(svc, sid, ["running"]);
    expect(await statusOf(await post(`/sessions/${sid}/pause`, {}))).toEqual([200, "paused"]);
    expect(await statusOf(await post(`/sessions/${sid}/resume`, { "content-type": "application/json" }, ""))).toEqual([
      200,
      "queued",
    ]);
    expect(await statusOf(await post(`/sessions/${sid}/cancel`, { "content-type": "text/plain" }, ""))).toEqual([
      200,
      "cancelled",
    ]);
  });

  it("still refuses malformed JSON (400) and a non-empty body of another type (415)", async () => {
    const path = "/sessions/ses_missing/pause";
    expect(await statusOf(await post(path, { "content-type": "application/json" }, "{oops"))).toEqual([
      400,
      "malformed_json",
    ]);
    expect(await statusOf(await post(path, { "content-type": "text/plain" }, "{}"))).toEqual([
      415,
      "unsupported_media_type",
    ]);
    expect(await statusOf(await post(path, {}, "{}"))).toEqual([415, "unsupported_media_type"]);
  });

  it("a route whose schema needs fields answers an empty body as it answers {}", async () => {
    expect(await statusOf(await post("/v1/memory/recall", {}))).toEqual([400, "invalid_request"]);
  });
});
