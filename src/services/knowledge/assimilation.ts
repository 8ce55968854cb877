// The knowledge lifecycle: capture (shravan) -> reflect (manan) -> practise (nididhyasan), each stage a record citing the vault.
import type { Citation } from "../../contract/citation.ts";
import {
  MananRequest as MananSchema,
  NididhyasanRequest as NididhyasanSchema,
  ShravanRequest as ShravanSchema,
  type MananRecord,
  type MananRequest,
  type NididhyasanRecord,
  type NididhyasanRequest,
  type Proposal,
  type ShravanRecord,
  type ShravanRequest,
} from "../../contract/assimilation.ts";
import { AppError } from "../../contract/errors.ts";
import { counterReason } from "../../domain/knowledge/counterpoint.ts";
import { contentId } from "../../domain/text/content-id.ts";
import { knowledgeMaturity, MATURITY_LEVEL, NEXT_STAGE } from "../../domain/knowledge/maturity.ts";
import { practise, renderArtefact, type Reflected } from "../../domain/knowledge/practice.ts";
import { reflect } from "../../domain/knowledge/reflection.ts";
import { splitSentences } from "../../domain/text/sentences.ts";
import type { ChunkRecord } from "../../ports/documents.ts";
import type { Clock } from "../../ports/clock.ts";
import type { EventDraft } from "../../ports/audit-log.ts";
import type { RecordKind, RecordRow, RecordStore, StoredRecord } from "../../ports/records.ts";
import type { DocumentStore } from "../../ports/documents.ts";
import { draftEvent } from "../audit/audit.ts";
import { citationOf, spanCitation } from "../memory/citations.ts";
import type { CallContext } from "../../ports/call-context.ts";
import type { IngestService } from "../memory/ingest.ts";
import type { MemoryService } from "../memory/memory.ts";
import { withSupersession } from "../../contract/supersession.ts";
import { supersession } from "./supersede.ts";

/** Claims checked against the rest of the vault, and vault hits read per claim: bounds the reflection's recall calls. */
const CLAIMS_CHECKED = 10;
const HITS_PER_CLAIM = 5;
const MAX_VAULT_COUNTERPOINTS = 10;

export class AssimilationService {
  constructor(
    private readonly store: { records: RecordStore; documents: Pick<DocumentStore, "getDocument" | "documentChunks"> },
    private readonly ingest: IngestService,
    private readonly memory: MemoryService,
    private readonly clock: Clock,
  ) {}

  /** Captures content with its provenance; the id is derived from the request, so a repeat returns the first record. */
  async capture(call: CallContext, input: ShravanRequest): Promise<ShravanRecord> {
    const req = ShravanSchema.parse(input);
    const ws = call.workspaceId;
    const id = contentId("shravan", req);
    const existing = await this.store.records.getRecord(ws, id);
    if (existing) return withSupersession(existing.body as ShravanRecord);
    for (const parent of req.lineage.parent_ids)
      await this.expect(ws, parent, "shravan", "lineage.parent_ids names a capture");

    const now = this.clock.now();
    const sourcePath = `knowledge/shravan/${id}.md`;
    const replaces = await supersession(this.store.records, ws, "shravan", req.supersedes, {
      id,
      sourcePath,
      at: now.getTime(),
    });
    const note = await this.ingest.prepareNote(ws, sourcePath, req.content, now);
    const body: ShravanRecord = {
      id,
      stage: "shravan",
      maturity_level: MATURITY_LEVEL.shravan,
      knowledge_maturity: knowledgeMaturity("shravan", req.trust_score, req.relevance_score),
      next_stage: NEXT_STAGE.shravan,
      created_at: now.toISOString(),
      created_by: call.actorId,
      citations: note.citations,
      source_type: req.source_type,
      source_title: req.source_title,
      authority: req.authority,
      trust_score: req.trust_score,
      relevance_score: req.relevance_score,
      lineage: { origin: req.lineage.origin ?? null, parent_ids: req.lineage.parent_ids },
      questions: req.questions,
      citation: req.citation ?? null,
      source_path: sourcePath,
      supersedes: req.supersedes ?? null,
      superseded_by: null,
      superseded_at: null,
    };
    const event = draftEvent(
      call,
      "knowledge.captured",
      { id, source_title: req.source_title, source_path: sourcePath },
      now.getTime(),
    );
    const { record } = await this.store.records.insertRecord(
      ws,
      { id, kind: "shravan", group: null, parentId: null, status: null, createdAt: now.getTime(), body },
      { events: [event], document: note.write, supersede: replaces },
    );
    return withSupersession(record.body as ShravanRecord);
  }

  /** Reflects on a capture once: claims, questions, principles and counterpoints, each cited to its sentence. */
  async reflect(call: CallContext, input: MananRequest): Promise<MananRecord> {
    const req = MananSchema.parse(input);
    const ws = call.workspaceId;
    const shravan = (await this.expect(ws, req.shravan_id, "shravan", "manan reflects on a capture"))
      .body as ShravanRecord;
    const done = (await this.store.records.childRecords(ws, shravan.id)).find((r) => r.kind === "manan");
    if (done)
      throw new AppError("wrong_stage", `${shravan.id} was already reflected on (${done.id})`, { manan_id: done.id });
    const doc = await this.store.documents.getDocument(ws, shravan.source_path);
    if (!doc) throw new AppError("not_found", `the content of ${shravan.id} was forgotten (${shravan.source_path})`);

    const now = this.clock.now();
    const chunks = await this.store.documents.documentChunks(ws, shravan.source_path);
    const cite = (start: number, end: number): Citation =>
      citeSpan(chunks, doc.sourcePath, doc.content, start, end, now);
    const sentences = reflect(doc.content).map((s) => ({
      role: s.role,
      text: doc.content.slice(s.start, s.end),
      citation: cite(s.start, s.end),
    }));
    const claims = sentences.filter((s) => s.role === "claim").map(({ text, citation }) => ({ text, citation }));
    const body: MananRecord = {
      id: contentId("manan", shravan.id),
      stage: "manan",
      maturity_level: MATURITY_LEVEL.manan,
      knowledge_maturity: knowledgeMaturity("manan", shravan.trust_score, shravan.relevance_score),
      next_stage: NEXT_STAGE.manan,
      created_at: now.toISOString(),
      created_by: call.actorId,
      citations: [],
      shravan_id: shravan.id,
      source_title: shravan.source_title,
      claims,
      questions: [
        ...sentences
          .filter((s) => s.role === "question")
          .map(({ text, citation }) => ({ text, origin: "content" as const, citation })),
        ...shravan.questions.map((text) => ({ text, origin: "capture" as const, citation: null })),
      ],
      counterpoints: [
        ...sentences
          .filter((s) => s.role === "counterpoint")
          .map(({ text, citation }) => ({
            text,
            citation,
            origin: "content" as const,
            claim_index: null,
            reason: "contrast" as const,
          })),
        ...(await this.vaultCounterpoints(ws, claims, shravan.source_path)),
      ],
      principles: sentences.filter((s) => s.role === "principle").map(({ text, citation }) => ({ text, citation })),
    };
    body.citations = uniqueCitations(
      [...body.claims, ...body.principles, ...body.counterpoints, ...body.questions].map((x) => x.citation),
    );
    const event = draftEvent(
      call,
      "knowledge.reflected",
      { id: body.id, shravan_id: shravan.id, claims: claims.length, counterpoints: body.counterpoints.length },
      now.getTime(),
    );
    return (await this.insertStage(ws, body.id, "manan", shravan.id, now, body, [event])) as MananRecord;
  }

  /** Other stored passages that share a claim's subject but negate it, contrast with it, or give another figure. */
  private async vaultCounterpoints(
    ws: string,
    claims: readonly { text: string }[],
    ownPath: string,
  ): Promise<MananRecord["counterpoints"]> {
    const found: MananRecord["counterpoints"] = [];
    const seen = new Set<string>();
    for (const [claimIndex, claim] of claims.slice(0, CLAIMS_CHECKED).entries()) {
      const { hits } = await this.memory.recall(ws, { query: claim.text.slice(0, 1000), k: HITS_PER_CLAIM });
      for (const hit of hits) {
        if (hit.source_path === ownPath) continue;
        for (const s of splitSentences(hit.text_span)) {
          const text = hit.text_span.slice(s.start, s.end);
          const reason = counterReason(claim.text, text);
          if (!reason || seen.has(hit.chunk_hash + text)) continue;
          seen.add(hit.chunk_hash + text);
          found.push({ text, origin: "vault", claim_index: claimIndex, reason, citation: { ...hit, text_span: text } });
          if (found.length === MAX_VAULT_COUNTERPOINTS) return found;
        }
      }
    }
    return found;
  }

  /** Turns a reflection into an artefact (once per implementation type); optionally queues it as a memory proposal. */
  async implement(call: CallContext, input: NididhyasanRequest): Promise<NididhyasanRecord> {
    const req = NididhyasanSchema.parse(input);
    const ws = call.workspaceId;
    const manan = (await this.expect(ws, req.manan_id, "manan", "nididhyasan practises a reflection"))
      .body as MananRecord;
    const done = (await this.store.records.childRecords(ws, manan.id)).find(
      (r) => r.kind === "nididhyasan" && (r.body as NididhyasanRecord).implementation_type === req.implementation_type,
    );
    if (done)
      throw new AppError(
        "wrong_stage",
        `${manan.id} was already practised as a ${req.implementation_type} (${done.id})`,
        { nididhyasan_id: done.id },
      );
    const shravan = (await this.store.records.getRecord(ws, manan.shravan_id))?.body as ShravanRecord | undefined;

    const now = this.clock.now();
    const refd = (x: { text: string; citation: Citation | null }): Reflected<Citation> => ({
      text: x.text,
      ref: x.citation,
    });
    const made = practise(req.implementation_type, {
      title: manan.source_title,
      claims: manan.claims.map(refd),
      questions: manan.questions.map(refd),
      counterpoints: manan.counterpoints.map(refd),
      principles: manan.principles.map(refd),
    });
    const artefact = { ...made, items: made.items.map((i) => ({ kind: i.kind, text: i.text, citation: i.ref })) };
    const id = contentId("nididhyasan", { manan: manan.id, type: req.implementation_type });
    const citations = uniqueCitations(artefact.items.map((i) => i.citation));
    const proposal: Proposal | null = req.propose_memory
      ? {
          id: contentId("proposal", id),
          nididhyasan_id: id,
          status: "pending",
          target_source_path: `knowledge/practiced/${id}.md`,
          content: renderArtefact(made, `${manan.source_title} (${manan.shravan_id} -> ${manan.id} -> ${id})`),
          proposed_at: now.toISOString(),
          proposed_by: call.actorId,
          reviewed_at: null,
          reviewed_by: null,
          note: null,
          citations,
        }
      : null;
    const body: NididhyasanRecord = {
      id,
      stage: "nididhyasan",
      maturity_level: MATURITY_LEVEL.nididhyasan,
      knowledge_maturity: knowledgeMaturity("nididhyasan", shravan?.trust_score ?? 0, shravan?.relevance_score ?? 0),
      next_stage: NEXT_STAGE.nididhyasan,
      created_at: now.toISOString(),
      created_by: call.actorId,
      citations,
      manan_id: manan.id,
      shravan_id: manan.shravan_id,
      source_title: manan.source_title,
      implementation_type: req.implementation_type,
      artefact,
      proposal: proposal && { id: proposal.id, status: proposal.status },
    };
    const events = [
      draftEvent(
        call,
        "knowledge.practiced",
        { id, manan_id: manan.id, implementation_type: req.implementation_type },
        now.getTime(),
      ),
    ];
    if (proposal)
      events.push(
        draftEvent(
          call,
          "knowledge.proposal_created",
          { id: proposal.id, nididhyasan_id: id, target_source_path: proposal.target_source_path },
          now.getTime(),
        ),
      );
    const records = proposal
      ? [
          {
            id: proposal.id,
            kind: "proposal" as const,
            group: null,
            parentId: id,
            status: "pending",
            createdAt: now.getTime(),
            body: proposal,
          },
        ]
      : [];
    return (await this.insertStage(ws, id, "nididhyasan", manan.id, now, body, events, records)) as NididhyasanRecord;
  }

  /** A record of the expected kind: unknown or foreign ids are 404, an id of another stage is 409. */
  private async expect(ws: string, id: string, kind: RecordKind, what: string): Promise<StoredRecord> {
    const found = await this.store.records.getRecord(ws, id);
    if (!found || found.kind === "decision") throw new AppError("not_found", `no record '${id}' in this workspace`);
    if (found.kind !== kind)
      throw new AppError("wrong_stage", `${what} (${kind}_...); '${id}' is a ${found.kind} record`, {
        expected: kind,
        actual: found.kind,
      });
    return found;
  }

  private async insertStage(
    ws: string,
    id: string,
    kind: RecordKind,
    parentId: string,
    now: Date,
    body: unknown,
    events: EventDraft[],
    records: RecordRow[] = [],
  ): Promise<unknown> {
    const { record, created } = await this.store.records.insertRecord(
      ws,
      { id, kind, group: null, parentId, status: null, createdAt: now.getTime(), body },
      { events, records },
    );
    // Two concurrent transitions of the same record: the second finds the first's row and gets the same 409 a later call would.
    if (!created) throw new AppError("wrong_stage", `${parentId} moved on concurrently (${id})`, { id });
    return record.body;
  }
}

/**
 * Cites [start, end) of a stored document: the chunk holding most of it, narrowed to the part inside that chunk, so the
 * chunk_hash is one feedback and forget know (a sentence across a chunk boundary is cited by its larger part). Only
 * a span no chunk touches is cited by its own content hash.
 */
function citeSpan(
  chunks: readonly ChunkRecord[],
  sourcePath: string,
  content: string,
  start: number,
  end: number,
  now: Date,
): Citation {
  const inside = (c: ChunkRecord) => Math.min(end, c.end) - Math.max(start, c.start);
  const chunk = chunks.reduce<ChunkRecord | undefined>(
    (best, c) => (inside(c) > (best ? inside(best) : 0) ? c : best),
    undefined,
  );
  if (!chunk) return spanCitation(sourcePath, "", content.slice(start, end), 1, now);
  return citationOf(chunk, 1, now, {
    start: Math.max(start, chunk.start) - chunk.start,
    end: Math.min(end, chunk.end) - chunk.start,
  });
}

function uniqueCitations(cs: readonly (Citation | null)[]): Citation[] {
  const byKey = new Map<string, Citation>();
  for (const c of cs) if (c && !byKey.has(c.chunk_hash + c.text_span)) byKey.set(c.chunk_hash + c.text_span, c);
  return [...byKey.values()];
}
