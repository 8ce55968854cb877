// A when-question is answered in its own direction of time (issue 40 item 1, issue 45): a plan ("next month") does not
// say when something happened, and a report ("last week") does not say when something will.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import { fitsTense, saidThen } from "../../src/domain/answering/answer-kind.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { ingestCorpus, type ErrorEnvelope } from "./support.ts";

describe("fitsTense", () => {
  it("keeps a time pointing ahead from a question about the past, and back from one about the future", () => {
    expect(fitsTense("When did Melanie go camping?", "next month")).toBe(false);
    expect(fitsTense("When was the launch?", "in two weeks")).toBe(false);
    expect(fitsTense("When did Melanie go camping?", "last weekend")).toBe(true);
    expect(fitsTense("When will the cluster move?", "last week")).toBe(false);
    expect(fitsTense("When is Bob going to ship it?", "yesterday")).toBe(false);
    expect(fitsTense("When will the cluster move?", "next Monday")).toBe(true);
    expect(fitsTense("When is the review?", "next month")).toBe(true);
  });
});

describe("saidThen", () => {
  it("reads a report with no time of its own as of when it was said, not a plan, a question or a future ask", () => {
    expect(saidThen("When did Gina launch a campaign?", "I just launched an ad campaign.")).toBe(true);
    expect(saidThen("When did Caroline speak?", "I wanted to tell you about my talk at the school.")).toBe(true);
    expect(saidThen("When did Jon open a studio?", "I'm going to open a studio.")).toBe(false);
    expect(saidThen("When did Jon open a studio?", "We'll open it soon.")).toBe(false);
    expect(saidThen("When did Jon open a studio?", "Did you open the studio?")).toBe(false);
    expect(saidThen("When will Jon open a studio?", "The studio is open.")).toBe(false);
  });
});

describe("the grounded answer to a when-question", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    await ingestCorpus(svc, {
      "chat/s1/t1.md": "Melanie: We're thinking about going camping at the lake next month.",
      "chat/s2/t1.md": "Gina: Unfortunately, I also lost my job at Door Dash this month.",
      "chat/s3/t1.md": "Melanie: Last month I got hurt and had to take a break from pottery.",
    });
  });
  afterAll(() => svc.cleanup());

  it("is not a plan's time: asked when it happened, it abstains", async () => {
    const past = await svc.post("/v1/grounded/answer", { question: "When did Melanie go camping?", min_confidence: 0 });
    expect(past.status, await past.clone().text()).toBe(422);
    expect(((await past.json()) as ErrorEnvelope).error.code).toBe("insufficient_evidence");
    const ahead = await svc.post("/v1/grounded/answer", {
      question: "When will Melanie go camping?",
      min_confidence: 0,
    });
    expect(ahead.status, await ahead.clone().text()).toBe(200);
    expect(((await ahead.json()) as GroundedAnswerResponse).answer).toMatch(/next month/);
  });

  it("is a relative time with its first word: 'this month', and 'Last month' opening the sentence", async () => {
    for (const [question, words] of [
      ["When did Gina lose her job at Door Dash?", /this month/],
      ["When did Melanie get hurt?", /Last month/],
    ] as const) {
      const res = await svc.post("/v1/grounded/answer", { question, min_confidence: 0 });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(((await res.json()) as GroundedAnswerResponse).answer).toMatch(words);
    }
  });
});

describe("a when-question over dated words that name no time", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    for (const [source_path, content, occurred_at] of [
      ["chat/s4/t1.md", "Gina: I just launched an ad campaign for my clothing store.", "2023-01-29T14:00:00Z"],
      ["chat/s5/t1.md", "Jon: I'm going to open a dance studio downtown.", "2023-01-29T14:00:00Z"],
      ["notes/garden.md", "We planted the apple trees behind the shed.", undefined],
    ] as const) {
      const res = await svc.post("/v1/memory/ingest", {
        source_path,
        content,
        ...(occurred_at ? { occurred_at } : {}),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
  });
  afterAll(() => svc.cleanup());

  const ask = (question: string) => svc.post("/v1/grounded/answer", { question, min_confidence: 0 });

  it("answers with the day they were said, saying so, and cites them", async () => {
    const res = await ask("When did Gina launch an ad campaign?");
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as GroundedAnswerResponse;
    expect(body.answer).toMatch(/^on or before 29 January 2023 \(when it was said/);
    expect(body.citations[0]!.text_span).toMatch(/launched an ad campaign/);
  });

  it("abstains for a plan, and for undated words (their time is only the ingest time)", async () => {
    for (const question of ["When did Jon open a dance studio?", "When did we plant the apple trees?"]) {
      const res = await ask(question);
      expect(res.status, `${question}: ${await res.clone().text()}`).toBe(422);
      expect(((await res.json()) as ErrorEnvelope).error.code).toBe("insufficient_evidence");
    }
  });
});
