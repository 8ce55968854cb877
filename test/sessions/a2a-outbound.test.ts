// Outbound calls are bounded (issue 39): an A2A run reaches only the hosts its catalog entry allows, through redirects
// and agent cards too; a response past its size is cut; the run's error is a stable code, never the remote's words.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startA2aPeer, type A2aPeer } from "../helpers/a2a-peer.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { startBackground, waitFor } from "./background-support.ts";

type Handler = Parameters<typeof createServer>[1];

async function serve(handler: Handler): Promise<{ server: Server; host: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, host: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("the A2A bridge's outbound limits", () => {
  let peer: A2aPeer;
  let svc: TestService;
  const servers: Server[] = [];
  beforeAll(async () => {
    peer = await startA2aPeer();
    const peerPort = new URL(peer.url).port;
    // Sends every request on to the peer under another name for the same machine: a host the entry does not allow.
    const redirector = await serve((_req, res) =>
      res.writeHead(302, { location: `http://localhost:${peerPort}/.well-known/agent-card.json` }).end(),
    );
    // Serves the peer's own card, whose interface URL is the peer's host, not this one's.
    const card = await (await fetch(`${peer.url}/.well-known/agent-card.json`)).text();
    const cardOnly = await serve((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(card));
    // A card far past the entry's size, sent without a declared length.
    const flood = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ name: "x".repeat(64 * 1024) }));
    });
    const failing = await serve((_req, res) =>
      res.writeHead(500, { "content-type": "text/plain" }).end("internal SECRET-BODY of the remote"),
    );
    servers.push(redirector.server, cardOnly.server, flood.server, failing.server);
    const agent = (host: string, extra: Record<string, unknown> = {}) => ({
      url: `http://${host}/`,
      approval_floor: "never",
      ...extra,
    });
    svc = await startTestService({
      agentCatalog: {
        a2a_agents: {
          redirected: agent(redirector.host),
          carded: agent(cardOnly.host),
          flooded: agent(flood.host, { max_response_bytes: 4_096 }),
          failing: agent(failing.host),
        },
        free_form: [{ workspaces: ["*"], a2a_hosts: [new URL(peer.url).host], approval_floor: "never" }],
      },
      env: { SMRITI_SESSION_HEARTBEAT_MS: "100" },
    });
  });
  afterAll(async () => {
    await svc.cleanup();
    await peer.close();
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });

  const run = async (agent: string) => {
    const s = await startBackground(svc, {
      task: `task for ${agent}`,
      engine: "a2a",
      agent,
      approval_mode: "never",
      max_retries: 0,
    });
    return waitFor(svc, s.session.session_id, ["completed", "failed"], 20_000);
  };

  it("refuses a redirect to a host the entry does not allow; the task never reaches it", async () => {
    const done = await run("redirected");
    expect(done.session).toMatchObject({
      status: "failed",
      attempt_count: 1,
      last_error: expect.stringMatching(
        /^outbound_host_forbidden: http:\/\/localhost:\d+ is not a host the catalog allows$/,
      ),
    });
    expect(peer.received).not.toContain("task for redirected");
  });

  it("refuses an agent card that sends the client to another host", async () => {
    const done = await run("carded");
    expect(done.session).toMatchObject({
      status: "failed",
      last_error: expect.stringMatching(/^outbound_host_forbidden: /),
    });
    expect(peer.received).not.toContain("task for carded");
  });

  it("cuts a response past the entry's max_response_bytes", async () => {
    const done = await run("flooded");
    expect(done.session).toMatchObject({
      status: "failed",
      attempt_count: 1,
      last_error: expect.stringMatching(/^outbound_response_too_large: the response passed 4096 bytes$/),
    });
  });

  it("says neither the remote's body nor its status in last_error", async () => {
    const done = await run("failing");
    expect(done.session.status).toBe("failed");
    expect(done.session.last_error).toMatch(/^a2a_unreachable: /);
    expect(done.session.last_error).not.toMatch(/SECRET|500|internal/);
  });

  it("refuses a free-form agent_url on a host no free-form rule allows, before anything is fetched", async () => {
    const res = await svc.post("/sessions", {
      task: "t",
      engine: "a2a",
      agent_url: "http://169.254.169.254/latest/meta-data/",
      approval_mode: "never",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("host_not_allowed");
    const allowed = await startBackground(svc, {
      task: "free form",
      engine: "a2a",
      agent_url: peer.url,
      approval_mode: "never",
    });
    expect((await waitFor(svc, allowed.session.session_id, ["completed", "failed"])).session.status).toBe("completed");
  });
});
