// The reflection check judges claims, not citation marks (issue 40 item 4): a correct, fully cited answer passes; an
// answer that adds an uncited claim fails.
import { describe, expect, it } from "vitest";
import type { Citation } from "../../src/contract/citation.ts";
import { reflect } from "../../src/sessions/turn/turn-evidence.ts";

const SPAN =
  "We picked PostgreSQL in March 2024 because the platform team already runs it. Alice Chen made the final call.";
const cite = (text_span: string, source_path = "notes/db.md"): Citation => ({
  chunk_hash: `sha256:${"a".repeat(64)}`,
  source_path,
  anchor: "Databases > Why Postgres",
  text_span,
  score: 0.9,
  retrieved_at: "2026-01-01T00:00:00.000Z",
});

describe("reflect", () => {
  it("passes the extractive agent's cited answer: the answer, the quoted evidence, its source mark", () => {
    const r = reflect(`Alice Chen. Evidence: "${SPAN}" (notes/db.md).`, [cite(SPAN)]);
    expect(r).toMatchObject({ passed: true });
  });

  it("passes a listing of open loops, each quoted with its source", () => {
    const loop = "Open question: who pays for the extra brokers?";
    expect(reflect(`Still open: "${loop}" (notes/infra.md).`, [cite(loop, "notes/infra.md")])).toMatchObject({
      passed: true,
    });
  });

  it("fails an answer that adds a claim no citation backs, and names it", () => {
    const r = reflect(
      `Alice Chen. Evidence: "${SPAN}" (notes/db.md). The migration finished in June with no downtime.`,
      [cite(SPAN)],
    );
    expect(r.passed).toBe(false);
    expect(r.detail).toContain("The migration finished in June");
  });

  it("fails a quote that no citation holds: a quote is evidence only when it is cited word for word", () => {
    const r = reflect(`Alice Chen. Evidence: "Bob Stone overruled the platform team in May." (notes/db.md).`, [
      cite(SPAN),
    ]);
    expect(r.passed).toBe(false);
  });

  it("still passes an abstention, which makes no claim", () => {
    expect(reflect("Memory holds no evidence that answers this.", [])).toMatchObject({ passed: true });
  });
});
