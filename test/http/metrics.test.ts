// GET /metrics: Prometheus exposition of request latency per route template and error counts by stable code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/runtime.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc.cleanup());

/** The value of one sample line, e.g. metric{a="b"} 3. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split("\n")
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}
const scrape = async () => {
  const res = await svc.app.request("/metrics");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
};

describe("GET /metrics", () => {
  it("counts requests per route template and method, never per raw URL", async () => {
    const before =
      sample(await scrape(), "smriti_http_request_duration_seconds_count", {
        route: "/v1/memory/recall",
        status: "200",
      }) ?? 0;
    for (let i = 0; i < 3; i++)
      expect((await svc.post("/v1/memory/recall", { query: `launch ${i}` })).status).toBe(200);
    const ref = `dec_${"a".repeat(20)}`;
    expect((await svc.get(`/v1/decisions/${ref}`)).status).toBe(404);
    const text = await scrape();
    expect(
      sample(text, "smriti_http_request_duration_seconds_count", {
        route: "/v1/memory/recall",
        method: "POST",
        status: "200",
      }),
    ).toBe(before + 3);
    expect(
      sample(text, "smriti_http_request_duration_seconds_count", { route: "/v1/decisions/:ref", status: "404" }),
    ).toBe(1);
    expect(text).not.toContain(ref);
    expect(text).toContain("smriti_process_cpu_seconds_total");
    // The search indexes of the workspace just searched: loaded once, their size estimated.
    const plain = (name: string) =>
      Number(/^(\S+) (\S+)$/m.exec(text.split("\n").find((l) => l.startsWith(`${name} `)) ?? "")?.[2]);
    expect(plain("smriti_search_index_workspaces")).toBe(1);
    expect(plain("smriti_search_index_loads")).toBe(1);
    expect(plain("smriti_search_index_bytes")).toBeGreaterThan(0);
  });

  it("counts error responses by their stable code, including unmatched routes and auth failures", async () => {
    await svc.post("/v1/memory/recall", "{oops", {});
    await svc.post("/v1/memory/recall", { query: "x" }, { authorization: null });
    await svc.get("/v1/no-such-route");
    const text = await scrape();
    expect(sample(text, "smriti_http_errors_total", { route: "/v1/memory/recall", code: "malformed_json" })).toBe(1);
    expect(sample(text, "smriti_http_errors_total", { code: "unauthorized" })).toBe(1);
    expect(sample(text, "smriti_http_errors_total", { route: "(unmatched)", code: "route_not_found" })).toBe(1);
    expect(text).not.toContain("no-such-route");
  });
});
