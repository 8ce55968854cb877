// The public Memory API operations as rows of the route table (routes.ts): each feeds an HTTP route, an MCP tool, OpenAPI and the client.
import { op } from "./route.ts";
import { AuditRequest, AuditResponse } from "./audit.ts";
import { FeedbackRequest, FeedbackResponse } from "./feedback.ts";
import { UpliftRequest, UpliftResponse } from "./uplift.ts";
import {
  KnowledgeReviewRequest,
  KnowledgeReviewResponse,
  KnowledgeStatusRequest,
  KnowledgeStatusResponse,
  MananRecord,
  MananRequest,
  NididhyasanRecord,
  NididhyasanRequest,
  Proposal,
  ProposalListRequest,
  ProposalListResponse,
  ProposalReviewRequest,
  ShravanRecord,
  ShravanRequest,
} from "./assimilation.ts";
import {
  DecisionExtractRequest,
  DecisionExtractResponse,
  DecisionGetRequest,
  DecisionListRequest,
  DecisionListResponse,
  DecisionRecord,
  DecisionRecordRequest,
} from "./decisions.ts";
import { MeetingExtractRequest, MeetingExtractResponse } from "./meetings.ts";
import { OpenLoopsRequest, OpenLoopsResponse } from "./open-loops.ts";
import { GroundedAnswerRequest, GroundedAnswerResponse } from "./grounded.ts";
import { GroundedEvalRequest, GroundedEvalResponse } from "./nuggets.ts";
import {
  ForgetRequest,
  ForgetResponse,
  IngestRequest,
  IngestResponse,
  PackRequest,
  PackResponse,
  RecallRequest,
  RecallResponse,
  SourceRequest,
  SourceResponse,
} from "./memory.ts";

/** The contract's own version (SPEC: v1.1 added the assimilation lifecycle; the contract is a draft), apart from the package's. */
export const API_VERSION = "1.1.0-draft";

export const operations = {
  recall: op({
    scope: "read",
    method: "POST",
    path: "/v1/memory/recall",
    tool: "service_recall",
    summary: "Hybrid retrieval over the workspace vault",
    description:
      "Search this workspace's memory (notes, docs, code, transcripts you or others ingested) and get the best matching passages as citations. " +
      "Each hit has the literal text_span to quote, its source_path and anchor, and a calibrated score in [0, 1] (about the chance it is relevant; 0.5+ is usually on topic). " +
      "Use filters.source_path_prefix to stay inside a folder, occurred_after/occurred_before for a window of when things happened, as_of for memory as it stood then, asked_at (with your UTC offset) for when the question is asked, which its 'yesterday' or 'last week' is read against, and k for how many hits.",
    input: RecallRequest,
    output: RecallResponse,
  }),
  ingest: op({
    scope: "write",
    method: "POST",
    path: "/v1/memory/ingest",
    tool: "service_ingest",
    writes: true,
    summary: "Add a file or text to the vault and index it",
    description:
      "Store text in this workspace's memory so it can be recalled later. Give the full file content and its source_path; " +
      "sending the same source_path again replaces the old version atomically, and unchanged content is a no-op. Markdown is split by headings, code by blocks.",
    input: IngestRequest,
    output: IngestResponse,
  }),
  forget: op({
    scope: "write",
    method: "POST",
    path: "/v1/memory/forget",
    tool: "service_forget",
    writes: true,
    summary: "Unindex by source_path or chunk_hash (idempotent)",
    description:
      "Remove content from memory so it is never recalled again: pass source_path to drop a whole source, or chunk_hash (from a citation) to drop one passage everywhere it occurs. Safe to repeat.",
    input: ForgetRequest,
    output: ForgetResponse,
  }),
  pack: op({
    scope: "read",
    method: "POST",
    path: "/v1/memory/pack",
    tool: "service_pack",
    summary: "Build a bounded ContextPack for an intent",
    description:
      "Assemble a compact, de-duplicated reading pack of cited passages for a task, guaranteed to fit budget_tokens. " +
      "Use it to fill your context window before answering; each item and each per-source summary carries its citation.",
    input: PackRequest,
    output: PackResponse,
  }),
  feedback: op({
    scope: "write",
    method: "POST",
    path: "/v1/memory/feedback",
    tool: "service_feedback",
    writes: true,
    summary: "Report which citations were used or unhelpful (outcome feedback)",
    description:
      "Tell memory which citations you actually used in your answer (outcome 'used') or found unhelpful ('unhelpful'), by chunk_hash. " +
      "Later recalls, packs and answers in this workspace rank used passages higher and unhelpful ones lower. Each report is in the audit log. " +
      "Unknown chunk hashes are evidence_not_found, an unknown trajectory_id not_found.",
    input: FeedbackRequest,
    output: FeedbackResponse,
  }),
  uplift: op({
    scope: "read",
    method: "GET",
    path: "/v1/cognitive/uplift",
    summary: "What each cognitive layer and the tuner contributed (counters, ablation uplift, tuner decisions)",
    description:
      "Per layer of the cognitive stack: its job, whether it is on, its counters (since=7d or any duration for a window; kept per hour, they survive restarts), " +
      "its uplift (metric with the layer on minus off) from the latest ablation run, and its stress uplift (the same on real data perturbed for that layer's job) from the latest stress run; the tuner's decisions with before/after figures; by_workspace breaks counters down. Not an MCP tool: the spec routes MCP clients to /metrics.",
    input: UpliftRequest,
    output: UpliftResponse,
  }),
  shravan: op({
    scope: "write",
    method: "POST",
    path: "/v1/memory/assimilation/shravan",
    tool: "service_shravan_add",
    writes: true,
    summary: "Capture knowledge with its source, authority, trust, lineage and questions (stage 1: shravan)",
    description:
      "Capture something learned, with where it came from: source_type, source_title, authority, trust_score and relevance_score (0-1), lineage (origin, parent capture ids), open questions and how to cite the original. " +
      "The content is stored in memory (recallable) and the record (shravan_...) comes back with its citations, knowledge_maturity and next_stage 'manan'. The same capture sent again returns the same record.",
    input: ShravanRequest,
    output: ShravanRecord,
  }),
  manan: op({
    scope: "write",
    method: "POST",
    path: "/v1/memory/assimilation/manan",
    tool: "service_manan_reflect",
    writes: true,
    summary: "Reflect on a capture: claims, questions, counterpoints, principles (stage 2: manan)",
    description:
      "Reflect on a capture (shravan_id): its claims, questions, principles and counterpoints, each the cited sentence it came from. Counterpoints include other stored passages that negate a claim, contrast with it or give a different figure. " +
      "Each capture is reflected on once (again: 409 wrong_stage with the manan_id). Next: service_nididhyasan_implement.",
    input: MananRequest,
    output: MananRecord,
  }),
  nididhyasan: op({
    scope: "write",
    method: "POST",
    path: "/v1/memory/assimilation/nididhyasan",
    tool: "service_nididhyasan_implement",
    writes: true,
    summary: "Turn a reflection into a habit, task, rule, checklist, project or principle (stage 3: nididhyasan)",
    description:
      "Turn a reflection (manan_id) into a practical artefact of implementation_type habit, task, rule, checklist, project or principle, each item citing the sentence it comes from. " +
      "With propose_memory true the artefact is queued as a long-term-memory proposal that a human reviewer must approve before it is stored; it is not stored by this call.",
    input: NididhyasanRequest,
    output: NididhyasanRecord,
  }),
  knowledge_status: op({
    scope: "read",
    method: "GET",
    path: "/v1/memory/assimilation/status",
    tool: "service_knowledge_status",
    summary: "Knowledge maturity counts, recent records, citations",
    description:
      "How much knowledge is captured, reflected and practiced, how much awaits the next stage, the memory proposals by status, and the newest lifecycle records with their citations (paged).",
    input: KnowledgeStatusRequest,
    output: KnowledgeStatusResponse,
  }),
  knowledge_review: op({
    scope: "read",
    method: "GET",
    path: "/v1/memory/assimilation/review",
    tool: "service_knowledge_review",
    summary: "Captured knowledge that still needs reflection or practice",
    description:
      "The work queue of the knowledge lifecycle, oldest first: captures not yet reflected on (needs 'reflection') and reflections not yet practiced (needs 'practice'), with citations.",
    input: KnowledgeReviewRequest,
    output: KnowledgeReviewResponse,
  }),
  proposals_list: op({
    scope: "read",
    method: "GET",
    path: "/v1/memory/assimilation/proposals",
    tool: "service_memory_proposals",
    summary: "Long-term-memory proposals and their review status",
    description:
      "List the memory proposals queued by service_nididhyasan_implement with propose_memory, oldest first, optionally by status (pending, approved, rejected). Approval is a human step, not a tool.",
    input: ProposalListRequest,
    output: ProposalListResponse,
  }),
  proposal_review: op({
    scope: "admin",
    method: "POST",
    path: "/v1/memory/assimilation/proposals/review",
    summary: "Approve or reject a memory proposal (reviewers only; not an MCP tool)",
    description:
      "Approve (the artefact note is stored in the vault) or reject a pending memory proposal. Needs x-svc-actor-id naming the reviewer, who must not be its proposer; the decision is in the audit log. " +
      "Deliberately not an MCP tool, so an agent cannot approve its own proposals; `smriti proposals review` is the CLI.",
    input: ProposalReviewRequest,
    output: Proposal,
  }),
  grounded_answer: op({
    scope: "read",
    method: "POST",
    path: "/v1/grounded/answer",
    tool: "service_grounded_answer",
    summary: "Closed-corpus question answering with citations and a trajectory",
    description:
      "Answer a question strictly from this workspace's memory. Returns the shortest evidence span that answers (a name, date, number or sentence), " +
      "sentence-level citations, a confidence in [0, 1] and a trajectory_id you can replay with service_audit. " +
      "When the evidence is too weak it refuses with error code insufficient_evidence and lists the rejected candidates: treat that as 'the memory does not know'.",
    input: GroundedAnswerRequest,
    output: GroundedAnswerResponse,
  }),
  grounded_eval: op({
    scope: "read",
    method: "POST",
    path: "/v1/grounded/eval",
    tool: "service_grounded_eval",
    summary: "Score an agent output against expected nuggets",
    description:
      "Grade an answer against a list of expected facts (nuggets, vital or okay): for each nugget whether the output supports it fully, partly or not, " +
      "with the matching text and why; plus nugget recall, a weighted score, and checks that each citation exists in memory and backs the sentence citing it.",
    input: GroundedEvalRequest,
    output: GroundedEvalResponse,
  }),
  audit: op({
    scope: "read",
    method: "GET",
    path: "/v1/audit/event_log",
    tool: "service_audit",
    summary: "Tail the event log, or replay one trajectory",
    description:
      "Read this workspace's append-only, hash-chained event log: ingests, forgets and grounded answers with actor and time. " +
      "Newest events first (order=oldest reads from the start); page with cursor/next_cursor; filter by type, actor, since/until; pass trajectory_id to get every step behind one grounded answer, in order.",
    input: AuditRequest,
    output: AuditResponse,
  }),
  decision_extract: op({
    scope: "read",
    method: "POST",
    path: "/v1/decisions/extract",
    tool: "service_decision_extract",
    summary: "Parse decisions out of markdown (nothing is stored)",
    description:
      "Read decisions out of a markdown text you pass in, without saving anything: ADRs in MADR or Nygard/adr-tools style (title, status, date, context, decision, chosen option, consequences, considered options) " +
      "and, when the text is not an ADR, free-form lines such as 'We decided to ...' or 'Decision: ...'. Each decision cites the literal spans it was read from (anchor = heading path). " +
      "Markdown without decisions gives an empty list, not an error.",
    input: DecisionExtractRequest,
    output: DecisionExtractResponse,
  }),
  decision_record: op({
    scope: "write",
    method: "POST",
    path: "/v1/decisions",
    tool: "service_decisions_record",
    writes: true,
    summary: "Record a decision (idempotent)",
    description:
      "Store a decision so it can be listed, fetched by ref and recalled later: title, decision, status (default accepted), optional date, context, consequences, considered options, " +
      "and evidence (chunk_hash values from citations it rests on). It is also written to memory as an ADR-style note, cited in the response. " +
      "The ref is derived from the content: sending the same decision again returns the same record and stores nothing new. " +
      "With supersedes (an earlier decision's ref), the earlier one is kept and marked superseded_by this one: recall ranks it below this one and says so.",
    input: DecisionRecordRequest,
    output: DecisionRecord,
  }),
  decisions_list: op({
    scope: "read",
    method: "GET",
    path: "/v1/decisions",
    tool: "service_decisions_list",
    summary: "List stored decisions, newest first (namespace filter, cursor paging)",
    description:
      "List the decisions recorded in this workspace, newest first, optionally in one namespace. Page with cursor/next_cursor: decisions recorded meanwhile never shift or repeat a page.",
    input: DecisionListRequest,
    output: DecisionListResponse,
  }),
  decision_get: op({
    scope: "read",
    method: "GET",
    path: "/v1/decisions/{ref}",
    tool: "service_decisions_get",
    summary: "Fetch one stored decision",
    description:
      "Fetch one recorded decision by its ref (dec_...), with its citations. Unknown refs, and refs of other workspaces, are not_found.",
    input: DecisionGetRequest,
    output: DecisionRecord,
  }),
  meeting_extract: op({
    scope: "read",
    method: "POST",
    path: "/v1/meetings/extract",
    tool: "service_meeting_extract",
    summary: "Run the meeting copilot on a transcript (nothing is stored)",
    description:
      "Read a meeting transcript you pass in (WebVTT, SRT, 'Speaker: text' lines with optional timestamps, or plain lines) and get back, without saving anything: the detected format, the attendees, " +
      "decisions, action items (owner when stated or inferable, due date as written plus YYYY-MM-DD when resolvable; pass meeting_date to resolve 'by Friday'), open questions and a short extractive summary. " +
      "Every item quotes its sentence, lists the 0-based turn indices it cites and carries literal citations (anchor = timestamp or line range). Deterministic pattern rules, no language model: " +
      "a transcript without speakers is fine (speaker null, attendees empty) and one with no decisions gives empty lists, not an error.",
    input: MeetingExtractRequest,
    output: MeetingExtractResponse,
  }),
  open_loops: op({
    scope: "read",
    method: "GET",
    path: "/v1/open_loops",
    tool: "service_open_loops",
    summary: "What is still open across the vault: markers, open questions, unchecked items",
    description:
      "List the unfinished items recorded in this workspace's memory: lines with an uppercase TODO, TBD, FIXME or OPENLOOP marker, 'Open question: ...' and 'unresolved' lines, unchecked '- [ ]' boxes, and items or questions under headings like Open questions, Next steps, Action items or Risks; each with source_path, line number, the line's text, its owner and due date where the line gives them, and a citation into the stored chunk. " +
      "Resolved lines (checked boxes '- [x]', struck-through lines, lines containing DONE or RESOLVED) are left out, and forgotten sources disappear. Filter with source_path_prefix; limit caps the list (truncated says when more exist).",
    input: OpenLoopsRequest,
    output: OpenLoopsResponse,
  }),
  source_get: op({
    scope: "read",
    method: "GET",
    path: "/v1/memory/source",
    summary: "A stored source's text and chunk boundaries (to verify a citation in context)",
    description:
      "Read back what ingest stored under a source_path: the normalized text, its document_hash and each chunk's hash, anchor and offsets. Forgotten or unknown sources are not_found.",
    input: SourceRequest,
    output: SourceResponse,
  }),
} as const;

export type Operations = typeof operations;

export type OperationId = keyof Operations;
