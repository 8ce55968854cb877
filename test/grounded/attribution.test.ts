// Whose words an answer rests on (issue 40): in a chat log a first-person statement is its speaker's, so it answers a
// question about that speaker with more confidence than the same question asked about the other participant.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GroundedAnswerResponse } from "../../src/contract/grounded.ts";
import { speakerAt, speakerOther } from "../../src/domain/answering/attribution.ts";
import { startTestService, type TestService } from "../helpers/runtime.ts";
import { ingestCorpus } from "./support.ts";

const RACE = "Caroline: Thanks, Melanie! I ran a charity race for mental health last Saturday.";
const LAKE = "Melanie: That is great, Caroline! I painted a lake at sunrise.";

describe("speakerAt", () => {
  it("reads the label of the sentence's line, else the turn's first line", () => {
    const turn = "Bob Lee: I moved to Berlin.\nIt was a long drive.";
    expect(speakerAt(turn, 0)).toBe("bob lee");
    expect(speakerAt(turn, turn.indexOf("It was"))).toBe("bob lee");
    expect(speakerAt("Alice: hi\nBob: I moved.", 10)).toBe("bob");
  });

  it("finds no speaker in notes, nor in a note label", () => {
    expect(speakerAt("We picked PostgreSQL in March.", 0)).toBeNull();
    expect(speakerAt("Open question: who pays for the brokers?", 0)).toBeNull();
    expect(speakerAt("Decision: we use PostgreSQL.", 0)).toBeNull();
  });
});

describe("speakerOther", () => {
  const chunks = [RACE, LAKE];
  const at = RACE.indexOf("I ran");
  const sentence = RACE.slice(at);

  it("is 1 for the speaker's own first-person fact asked about the other participant", () => {
    expect(speakerOther("What did Melanie run for mental health?", RACE, at, sentence, chunks)).toBe(1);
    expect(speakerOther("What did Melanie's family run?", RACE, at, sentence, chunks)).toBe(1);
  });

  it("is 0 when the question names the speaker, names no participant, or the sentence is not first-person", () => {
    expect(speakerOther("What did Caroline run for mental health?", RACE, at, sentence, chunks)).toBe(0);
    expect(speakerOther("What did Caroline and Melanie talk about?", RACE, at, sentence, chunks)).toBe(0);
    expect(speakerOther("What race was run for mental health?", RACE, at, sentence, chunks)).toBe(0);
    expect(speakerOther("What did Melanie run?", RACE, 0, "Caroline: Thanks, Melanie!", chunks)).toBe(0);
    expect(speakerOther("What did Melanie run?", "I ran a race.", 0, "I ran a race.", ["I ran a race."])).toBe(0);
  });

  it("reads a sentence continuing a first-person turn as the speaker's, unless it turns to the listener", () => {
    const trip = "Caroline: I took the kids on a road trip. Thankfully, they enjoyed the Grand Canyon a lot!";
    const later = trip.indexOf("Thankfully");
    const ask = "What did Melanie's kids enjoy?";
    expect(speakerOther(ask, trip, later, trip.slice(later), [trip, LAKE])).toBe(1);
    const toYou = "Caroline: I took the kids out. Your kids enjoyed the Grand Canyon!";
    expect(speakerOther(ask, toYou, toYou.indexOf("Your"), "Your kids enjoyed the Grand Canyon!", [toYou, LAKE])).toBe(
      0,
    );
    const plain = "Caroline: The kids enjoyed the Grand Canyon.";
    expect(speakerOther(ask, plain, 0, plain, [plain, LAKE])).toBe(0);
  });
});

describe("the grounded answer weighs whose words it cites", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
    await ingestCorpus(svc, { "chat/s1/t1.md": RACE, "chat/s1/t2.md": LAKE });
  });
  afterAll(() => svc.cleanup());

  const ask = async (question: string) => {
    const res = await svc.post("/v1/grounded/answer", { question, min_confidence: 0 });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as GroundedAnswerResponse;
  };

  it("cites the same turn for both people but is less sure when the turn is the other one's", async () => {
    const own = await ask("What did Caroline run for mental health?");
    const other = await ask("What did Melanie run for mental health?");
    expect(own.citations[0]!.source_path).toBe("chat/s1/t1.md");
    expect(other.citations[0]!.source_path).toBe("chat/s1/t1.md");
    expect(other.confidence).toBeLessThan(own.confidence * 0.6);
  });
});
