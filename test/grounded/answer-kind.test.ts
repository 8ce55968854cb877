// POST /v1/grounded/answer answers with the kind the question asks for, or abstains; min_confidence is a floor (issue 40).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { ingestCorpus, json, type ErrorEnvelope, type InsufficientDetails } from "./support.ts";

const NOTES = {
  "notes/db.md":
    "# Databases\n\n## Why Postgres\n\nWe picked PostgreSQL in March 2024 because the platform team already runs it. Alice Chen made the final call.\n",
  "notes/cache.md": "# Cache\n\nThe cache is rebuilt every night by a cron job on the build host.\n",
  "notes/infra.md":
    "# Infra\n\nThe staging cluster moves to eu-west-2 on Monday. Open question: who pays for the extra brokers?\n",
};

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
  await ingestCorpus(svc, NOTES);
});
afterAll(async () => svc.cleanup());

const ask = (body: unknown) => svc.post("/v1/grounded/answer", body);

describe("the answer has the asked kind", () => {
  it("answers who with a person, or abstains: never a month", async () => {
    const res = await ask({ question: "Who picked PostgreSQL?", min_confidence: 0 });
    if (res.status === 422)
      return expect(((await res.json()) as ErrorEnvelope).error.code).toBe("insufficient_evidence");
    const body = GroundedAnswerResponse.parse(await json(res, 200));
    expect(body.answer_type).toBe("person");
    expect(body.answer).toBe("Alice Chen");
  });

  it("answers where with the place the note names, not the day", async () => {
    const body = await json<GroundedAnswerResponse>(
      ask({ question: "Where is the staging cluster moving?", min_confidence: 0 }),
      200,
    );
    expect(body.answer_type).toBe("place");
    expect(body.answer).toBe("eu-west-2");
    expect(body.citations[0]!.source_path).toBe("notes/infra.md");
  });

  it("answers when with a time", async () => {
    const body = await json<GroundedAnswerResponse>(
      ask({ question: "When does the staging cluster move?", min_confidence: 0 }),
      200,
    );
    expect(body.answer_type).toBe("date");
    // The note was ingested without a time: its relative words are kept, not read against the day it was ingested.
    expect(body.resolved_time).toBeUndefined();
    expect(body.answer).toContain("Monday");
    expect(body.citations[0]!.text_span).toContain(body.answer);
  });

  it("abstains with the best evidence cited when no span of the asked kind exists, at any floor", async () => {
    // Only the cache note: it names no one.
    const res = await ask({
      question: "Who rebuilds the cache?",
      min_confidence: 0,
      filters: { source_path_prefix: "notes/cache" },
    });
    const body = await json<ErrorEnvelope<InsufficientDetails>>(res, 422);
    expect(body.error.code).toBe("insufficient_evidence");
    expect(body.error.details!.confidence).toBe(0);
    expect(body.error.details!.rejected[0]!.source_path).toBe("notes/cache.md");
  });

  it("abstains below min_confidence with 422 insufficient_evidence", async () => {
    const given = await json<GroundedAnswerResponse>(
      ask({ question: "Where is the staging cluster moving?", min_confidence: 0 }),
      200,
    );
    const res = await ask({
      question: "Where is the staging cluster moving?",
      min_confidence: Math.min(1, given.confidence + 0.01),
    });
    const body = await json<ErrorEnvelope<InsufficientDetails>>(res, 422);
    expect(body.error.code).toBe("insufficient_evidence");
    expect(body.error.details!.threshold).toBeCloseTo(Math.min(1, given.confidence + 0.01), 6);
    expect(body.error.details!.rejected.length).toBeGreaterThan(0);
  });
});
