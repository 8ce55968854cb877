// The meeting copilot (issue 4): attendees, decisions, action items, open questions and a summary from one transcript. Pure.
import { findAttendees, type AttendeeDraft } from "./attendees.ts";
import { findDue } from "./due-dates.ts";
import { findActions, type OwnerBasis } from "./actions.ts";
import { findDecisions } from "./decisions.ts";
import { findOpenQuestions } from "./questions.ts";
import { summarize } from "./summary.ts";
import { parseTranscript, type TranscriptFormat, type Turn } from "./transcript.ts";
import { displayText, utterancesOf, type Utterance } from "./utterances.ts";

/** A literal [start, end) range of the transcript inside one turn; an item's first span is the sentence it states. */
export interface TurnSpan {
  turn: number;
  start: number;
  end: number;
}

export interface ItemDraft {
  text: string;
  speaker: string | null;
  spans: TurnSpan[];
}

export interface ActionItemDraft extends ItemDraft {
  owner: string | null;
  ownerBasis: OwnerBasis | null;
  due: { text: string; date: string | null } | null;
}

export interface MeetingDraft {
  format: TranscriptFormat;
  turns: Turn[];
  lineStarts: number[];
  attendees: AttendeeDraft[];
  decisions: ItemDraft[];
  actionItems: ActionItemDraft[];
  openQuestions: ItemDraft[];
  summary: (ItemDraft & { score: number })[];
}

export interface MeetingOptions {
  /** YYYY-MM-DD: resolves relative due dates ("by Friday"); without it only dates with a year resolve. */
  meetingDate: string | null;
}

export function extractMeeting(text: string, opts: MeetingOptions): MeetingDraft {
  const t = parseTranscript(text);
  const utterances = utterancesOf(text, t.turns);
  const attendees = findAttendees(text, t);
  const item = (u: Utterance, extra: TurnSpan[] = []): ItemDraft => ({
    text: displayText(text.slice(u.start, u.end)),
    speaker: t.turns[u.turn]?.speaker ?? null,
    spans: [spanOf(u), ...extra],
  });
  const firstOfTurn = new Map<number, Utterance>();
  for (const u of utterances) if (!firstOfTurn.has(u.turn)) firstOfTurn.set(u.turn, u);
  const spanOf = (u: Utterance): TurnSpan => ({ turn: u.turn, start: u.start, end: u.end });
  const actions = findActions(
    t.turns,
    utterances,
    attendees.map((a) => a.name),
  );
  const actionItems = actions.map((a): ActionItemDraft => {
    const u = utterances[a.utterance]!;
    const reply = a.replyTurn === null ? undefined : firstOfTurn.get(a.replyTurn);
    const replySpan = reply ? [spanOf(reply)] : [];
    const due = [u, reply].flatMap((s) => {
      const d = s && findDue(text.slice(s.start, s.end), opts.meetingDate);
      return d ? [{ text: text.slice(s.start + d.start, s.start + d.end), date: d.date }] : [];
    })[0];
    return { ...item(u, replySpan), owner: a.owner, ownerBasis: a.ownerBasis, due: due ?? null };
  });
  const claimed = new Set(actions.map((a) => a.utterance));
  const openQuestions = findOpenQuestions(t.turns, utterances, claimed).map((q) => {
    const u = utterances[q.utterance]!;
    const deferral = q.deferral === null ? undefined : utterances[q.deferral];
    return item(u, deferral ? [spanOf(deferral)] : []);
  });
  return {
    format: t.format,
    turns: t.turns,
    lineStarts: t.lineStarts,
    attendees,
    decisions: findDecisions(t.turns, utterances).map((d) =>
      item(
        utterances[d.utterance]!,
        d.acceptedIn.map((j) => spanOf(utterances[j]!)),
      ),
    ),
    actionItems,
    openQuestions,
    summary: summarize(utterances).map((p) => ({ ...item(utterances[p.utterance]!), score: p.score })),
  };
}
