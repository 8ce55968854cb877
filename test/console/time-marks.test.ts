// Time in the console (issue 45): the answer tab says what relative words resolved to and from when, and a recalled
// citation that a later decision replaced says so; a question is asked at the browser's own time and offset.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startRig, type ConsoleRig } from "./support.ts";

let rig: ConsoleRig;
beforeAll(async () => {
  rig = await startRig();
  const ingest = await rig.c.svc.post("/v1/memory/ingest", {
    source_path: "chat/s1.txt",
    occurred_at: "2023-05-08T13:56:00Z",
    content: "Caroline: I went to the LGBTQ support group yesterday. It was powerful.",
  });
  expect(ingest.status).toBe(200);
  const first = await rig.c.client.recordDecision({
    namespace: "queues",
    title: "Queue for the zorbling jobs",
    decision: "Zorbling jobs go through Redis lists.",
  });
  await rig.c.client.recordDecision({
    namespace: "queues",
    title: "Queue for the zorbling jobs",
    decision: "Zorbling jobs go through PostgreSQL with SKIP LOCKED.",
    supersedes: first.ref,
  });
});
afterAll(async () => rig.close());
afterEach(() => rig.assertNoErrors());

describe("time in the console", () => {
  it("the answer tab shows the resolved time beside the answer", async () => {
    const page = await rig.page("#/memory/answer");
    await page.getByLabel("Question").fill("When did Caroline go to the support group?");
    await page.getByRole("button", { name: "Run" }).click();
    const resolved = page.getByTestId("resolved-time");
    await resolved.waitFor();
    expect(await resolved.textContent()).toMatch(/“yesterday” = 7 May 2023, resolved against 2023-05-08 13:56/);
    await page.close();
  });

  it("asks at the browser's local time, and says what the question's 'yesterday' was read as", async () => {
    // 25 hours apart, these two zones are never on the same date: a console asking in UTC would show one date twice.
    const asked: string[] = [];
    for (const timezoneId of ["Pacific/Kiritimati", "Pacific/Pago_Pago"]) {
      const today = () =>
        new Intl.DateTimeFormat("en-GB", { timeZone: timezoneId, day: "numeric", month: "long", year: "numeric" })
          .format(new Date())
          .replace(",", "");
      const before = today();
      const page = await rig.page("#/memory/recall", { timezoneId });
      await page.getByLabel("Query").fill("support group yesterday");
      await page.getByRole("button", { name: "Run" }).click();
      const notes = page.getByTestId("request-notes");
      await notes.waitFor();
      const on = /^'yesterday' read as .+ \(asked on (.+); see asked_at\)$/.exec(
        (await notes.textContent()) ?? "",
      )?.[1];
      expect([before, today()]).toContain(on);
      asked.push(on!);
      await page.close();
    }
    expect(asked[0]).not.toBe(asked[1]);
  });

  it("a recalled decision that a later one replaced says by which and when", async () => {
    const page = await rig.page("#/memory/recall");
    await page.getByLabel("Query").fill("zorbling jobs queue");
    await page.getByRole("button", { name: "Run" }).click();
    const marked = page.getByTestId("superseded-by").first();
    await marked.waitFor();
    expect(await marked.textContent()).toMatch(/superseded by dec_[0-9a-f]{20} on \d{4}-\d{2}-\d{2}/);
    await page.close();
  });
});
