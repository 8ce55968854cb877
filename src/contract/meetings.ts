// The meeting copilot (issue 4): attendees, decisions, action items, open questions and a summary from a transcript, nothing stored.
import { z } from "zod";
import { Citation } from "./citation.ts";
import { DocumentText, SourcePath } from "./memory.ts";

export const MeetingExtractRequest = z
  .strictObject({
    transcript: DocumentText.describe(
      "The transcript text. Detected formats: WebVTT ('WEBVTT' header; speakers from <v Name> voice tags or 'Name:' at the start of a cue line), SRT (numbered cues with 'hh:mm:ss,mmm --> ...' timings), " +
        "speaker lines ('Alice: ...', '[00:01:02] Alice: ...', 'Alice (00:01:02): ...'; unlabelled lines continue the previous turn), or plain lines (one turn per line, no speakers). " +
        "'Attendees:', 'Participants:' or 'Present:' lines list attendees and are not turns.",
    ),
    source_path: SourcePath.optional().describe(
      "Where the transcript lives, copied into every citation. Omit for loose text: citations use 'text/<first 12 hex of the transcript hash>'.",
    ),
    meeting_date: z.iso
      .date()
      .optional()
      .describe(
        "The meeting's date (YYYY-MM-DD). Resolves relative due dates: 'by Friday' = the first Friday after it, 'next Friday' = Friday of the following Monday-based week, 'tomorrow', 'end of week' (Friday), 'end of month', 'in 3 days'. Without it only dates with a year resolve.",
      ),
  })
  .describe("Run the meeting copilot on a transcript. Nothing is written to memory.");
export type MeetingExtractRequest = z.infer<typeof MeetingExtractRequest>;

export const TranscriptFormat = z
  .enum(["vtt", "srt", "speaker_turns", "plain"])
  .describe(
    "The detected format: 'vtt', 'srt', 'speaker_turns' (lines opened by 'Name:' or a timestamp; at least two such lines and a third of all lines), 'plain' (every non-blank line is a turn with speaker null).",
  );

const MeetingCitation = Citation.describe(
  "A literal span of the transcript (text_span is an exact substring; chunk_hash is the span's own hash; score 1). anchor = the cue or line timestamp as written when the turn has one, else the line range 'L<a>-L<b>'.",
);

const itemFields = {
  text: z
    .string()
    .describe(
      "The sentence the item was read from, markup tags removed and whitespace collapsed (citations[0].text_span is the literal).",
    ),
  speaker: z.string().nullable().describe("Who said it; null when the transcript names no speaker."),
  turns: z
    .array(z.number().int().min(0))
    .describe("0-based indices of the turns cited, in citation order (the first is the turn the sentence is in)."),
  citations: z
    .array(MeetingCitation)
    .min(1)
    .describe(
      "One per cited sentence: the item's own sentence first, then any supporting one (an accepting reply, a deferral).",
    ),
};

export const MeetingDecision = z
  .object(itemFields)
  .describe("A sentence that states a decision (or the accepted proposal, with its acceptance cited after it).");

export const ActionItem = z.object({
  ...itemFields,
  owner: z
    .string()
    .nullable()
    .describe("Who will do it, when stated or inferable; null for team actions ('we need to ...') and unnamed ones."),
  owner_basis: z
    .enum(["self", "named", "addressed", "accepted"])
    .nullable()
    .describe(
      "How the owner was found: 'self' (the speaker committed: 'I'll send the draft'), 'named' ('Bob will ...', 'Bob to ...'), 'addressed' ('Carol, can you ...?' / 'can you ..., Carol?'), 'accepted' (a request the next speaker accepted: 'Sure.'); null when owner is null.",
    ),
  due: z
    .object({
      text: z
        .string()
        .describe(
          "The due phrase as written ('by Friday', 'before March 3'), a literal substring of a cited sentence.",
        ),
      date: z.iso
        .date()
        .nullable()
        .describe(
          "The phrase as YYYY-MM-DD when resolvable (relative phrases need meeting_date); null for 'next meeting', 'ASAP' and unresolvable ones.",
        ),
    })
    .nullable()
    .describe("When it is due, from the item's sentence or the accepting reply; null when no date is stated."),
});

export const OpenQuestion = z.object(itemFields).describe("A question left open.");

export const SummarySentence = z.object({
  ...itemFields,
  score: z.number().min(0).max(1).describe("Cosine similarity to the meeting's tf-idf centroid."),
});

export const Attendee = z.object({
  name: z.string().describe("As written: the speaker label, or the list entry when the person never spoke."),
  source: z
    .enum(["speaker", "attendee_list", "both"])
    .describe(
      "Whether the name came from speaker labels, an 'Attendees:' line, or both (a listed 'Alice Chen' and a speaker 'Alice' are one attendee).",
    ),
  turn_count: z.number().int().min(0).describe("Turns this attendee spoke."),
  first_turn: z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe("0-based index of their first turn; null when they never spoke."),
  citation: MeetingCitation.describe("Where the name is first written (the list entry or the first speaker label)."),
});

export const MeetingExtractResponse = z.object({
  source_path: z.string(),
  format: TranscriptFormat,
  turn_count: z
    .number()
    .int()
    .min(0)
    .describe(
      "How many turns the transcript was split into (a cue or labelled line plus its continuation lines; a line in 'plain').",
    ),
  attendees: z
    .array(Attendee)
    .describe(
      "Distinct speakers (case-insensitive) plus names listed on 'Attendees:' / 'Participants:' / 'Present:' lines, in order of first mention; empty when the transcript names nobody.",
    ),
  decisions: z
    .array(MeetingDecision)
    .describe(
      "Sentences that state a decision ('we decided/agreed/chose ...', 'Decision: ...', 'let's go with / we'll stick with ...', 'decided to/on ...', 'the decision is ...', 'that's settled', 'we all agree', 'consensus', 'So we'll ...'), " +
        "and proposals someone else accepts ('Agreed', 'sounds good', 'good idea', 'makes sense', 'let's do that'): the item is the last sentence of 4+ words in one of the 2 previous turns by another speaker, citing the acceptance after it; " +
        "an acceptance with no such proposal in view is listed by itself. In transcript order.",
    ),
  action_items: z
    .array(ActionItem)
    .describe(
      "Sentences that commit someone to a task: 'I'll / I will / I'm going to / I can + task verb' (owner = speaker), 'Bob will / Bob to + task verb' (owner = Bob), a request 'can/could you + task verb' with the addressee named or accepted by the next speaker (unaccepted unnamed requests are not items), " +
        "and team actions 'we need to / we'll / we have to + task verb', 'Action: ...', 'Next steps are ...' (owner null). Task verbs are a fixed list (send, write, check, schedule, review, ...). In transcript order.",
    ),
  open_questions: z
    .array(OpenQuestion)
    .describe(
      "Questions (a sentence ending in '?', 3+ words, not a tag like '..., right?') that nobody answered: none of the next 3 turns by someone else (any turn when speakers are unknown) holds a statement of 3+ words or a yes/no, " +
        "or a deferral came first ('I don't know', 'let's come back to that', 'TBD'; it is cited too). 'Open question: ...' lines are always open; requests that became action items are not questions.",
    ),
  summary: z
    .array(SummarySentence)
    .describe(
      "Extractive summary: the sentences (6+ words) most similar to the meeting's tf-idf centroid (fillers like 'um', 'yeah' ignored), picked by MMR (diversity 0.3) so they differ, one per 20 sentences, 1 to 5, in transcript order.",
    ),
});
export type MeetingExtractResponse = z.infer<typeof MeetingExtractResponse>;
