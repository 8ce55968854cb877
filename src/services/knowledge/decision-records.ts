// Stored decisions: an idempotent record (ref derived from the content) kept as a record plus an ADR-style vault note.
import type {
  DecisionGetRequest,
  DecisionListRequest,
  DecisionListResponse,
  DecisionRecord,
  DecisionRecordRequest,
} from "../../contract/decisions.ts";
import { DecisionListRequest as ListSchema, DecisionRecordRequest as RecordSchema } from "../../contract/decisions.ts";
import { AppError } from "../../contract/errors.ts";
import { renderDecisionNote } from "../../domain/knowledge/decision-note.ts";
import { contentId } from "../../domain/text/content-id.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/documents.ts";
import type { RecordStore } from "../../ports/records.ts";
import { draftEvent } from "../audit/audit.ts";
import { citationOf } from "../memory/citations.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { pageBySeq } from "../cursor.ts";
import type { IngestService } from "../memory/ingest.ts";
import { withSupersession } from "../../contract/supersession.ts";
import { supersession } from "./supersede.ts";

export class DecisionRecordService {
  constructor(
    private readonly store: { records: RecordStore; documents: Pick<DocumentStore, "chunksByHash"> },
    private readonly ingest: IngestService,
    private readonly clock: Clock,
  ) {}

  async record(call: CallContext, input: DecisionRecordRequest): Promise<DecisionRecord> {
    const req = RecordSchema.parse(input);
    const ws = call.workspaceId;
    // The ref hashes what was decided (not who or when), so a retried or repeated request finds the first record.
    const ref = contentId("dec", { ...req, evidence: [...new Set(req.evidence)].sort() });
    const existing = await this.store.records.getRecord(ws, ref);
    if (existing) return decisionOf(existing.body);

    const now = this.clock.now();
    const sourcePath = `decisions/${req.namespace}/${ref}.md`;
    const replaces = await supersession(this.store.records, ws, "decision", req.supersedes, {
      id: ref,
      sourcePath,
      at: now.getTime(),
    });
    const evidence = [];
    for (const hash of req.evidence) {
      const [chunk] = await this.store.documents.chunksByHash(ws, hash);
      if (!chunk)
        throw new AppError("evidence_not_found", `no stored passage with chunk_hash ${hash} in this workspace`, {
          chunk_hash: hash,
        });
      evidence.push(citationOf(chunk, 1, now));
    }
    const fields = {
      ref,
      title: req.title,
      status: req.status,
      date: req.date ?? null,
      context: req.context ?? null,
      decision: req.decision,
      chosenOption: req.chosen_option ?? null,
      consequences: req.consequences ?? null,
      options: req.options,
    };
    const note = await this.ingest.prepareNote(ws, sourcePath, renderDecisionNote(fields), now);
    const body: DecisionRecord = {
      ref,
      namespace: req.namespace,
      title: req.title,
      status: req.status,
      date: fields.date,
      context: fields.context,
      decision: req.decision,
      chosen_option: fields.chosenOption,
      consequences: fields.consequences,
      options: req.options,
      recorded_at: now.toISOString(),
      recorded_by: call.actorId,
      source_path: sourcePath,
      citations: [...note.citations, ...evidence],
      supersedes: req.supersedes ?? null,
      superseded_by: null,
      superseded_at: null,
    };
    const audit = draftEvent(
      call,
      "decision.recorded",
      { ref, namespace: req.namespace, title: req.title, source_path: sourcePath, supersedes: req.supersedes ?? null },
      now.getTime(),
    );
    const { record } = await this.store.records.insertRecord(
      ws,
      { id: ref, kind: "decision", group: req.namespace, parentId: null, status: null, createdAt: now.getTime(), body },
      { events: [audit], document: note.write, supersede: replaces },
    );
    return decisionOf(record.body);
  }

  async get(call: CallContext, req: DecisionGetRequest): Promise<DecisionRecord> {
    const found = await this.store.records.getRecord(call.workspaceId, req.ref);
    if (!found || found.kind !== "decision")
      throw new AppError("not_found", `no decision '${req.ref}' in this workspace`);
    return decisionOf(found.body);
  }

  async list(call: CallContext, input: DecisionListRequest): Promise<DecisionListResponse> {
    const req = ListSchema.parse(input);
    const page = await pageBySeq(call.workspaceId, req, (afterSeq, limit) =>
      this.store.records.listRecords(call.workspaceId, {
        kinds: ["decision"],
        group: req.namespace,
        afterSeq,
        order: "desc",
        limit,
      }),
    );
    return { decisions: page.rows.map((r) => decisionOf(r.body)), next_cursor: page.next_cursor };
  }
}

const decisionOf = (body: unknown): DecisionRecord => withSupersession(body as DecisionRecord);
