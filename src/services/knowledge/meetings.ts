// Meeting copilot service: runs the pure extractor and turns its literal spans into Citations. Writes nothing.
import type { MeetingExtractRequest, MeetingExtractResponse } from "../../contract/meetings.ts";
import { contentHash } from "../../domain/text/hash.ts";
import { lineAt } from "../../domain/text/lines.ts";
import { extractMeeting, type ItemDraft, type TurnSpan } from "../../domain/meetings/copilot.ts";
import type { Clock } from "../../ports/clock.ts";
import { spanCitation } from "../memory/citations.ts";

export class MeetingService {
  constructor(private readonly clock: Clock) {}

  extract(req: MeetingExtractRequest): MeetingExtractResponse {
    const text = req.transcript;
    const sourcePath = req.source_path ?? `text/${contentHash(text).slice(7, 19)}`;
    const now = this.clock.now();
    const m = extractMeeting(text, { meetingDate: req.meeting_date ?? null });
    const cite = (s: TurnSpan) => {
      const anchor =
        m.turns[s.turn]?.timestamp ??
        `L${lineAt(m.lineStarts, s.start)}-L${lineAt(m.lineStarts, Math.max(s.start, s.end - 1))}`;
      return spanCitation(sourcePath, anchor, text.slice(s.start, s.end), 1, now);
    };
    const item = (d: ItemDraft) => ({
      text: d.text,
      speaker: d.speaker,
      turns: d.spans.map((s) => s.turn),
      citations: d.spans.map(cite),
    });
    return {
      source_path: sourcePath,
      format: m.format,
      turn_count: m.turns.length,
      attendees: m.attendees.map((a) => ({
        name: a.name,
        source: a.source,
        turn_count: a.turns,
        first_turn: a.firstTurn,
        citation: cite({ turn: a.firstTurn ?? -1, ...a.span }),
      })),
      decisions: m.decisions.map(item),
      action_items: m.actionItems.map((a) => ({ ...item(a), owner: a.owner, owner_basis: a.ownerBasis, due: a.due })),
      open_questions: m.openQuestions.map(item),
      summary: m.summary.map((s) => ({ ...item(s), score: Number(s.score.toFixed(6)) })),
    };
  }
}
