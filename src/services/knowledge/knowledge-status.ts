// Where the workspace's knowledge stands: counts per lifecycle stage, the newest records, and the queue still awaiting reflection or practice.
import {
  KnowledgeReviewRequest as ReviewSchema,
  KnowledgeStatusRequest as StatusSchema,
  type KnowledgeReviewRequest,
  type KnowledgeReviewResponse,
  type KnowledgeStatusRequest,
  type KnowledgeStatusResponse,
  type ShravanRecord,
} from "../../contract/assimilation.ts";
import type { z } from "zod";
import type { RecordSummary } from "../../contract/assimilation.ts";
import type { RecordKind, RecordStore, StoredRecord } from "../../ports/records.ts";
import type { CallContext } from "../../ports/call-context.ts";
import { pageBySeq } from "../cursor.ts";

type Summary = z.infer<typeof RecordSummary>;
const STAGE_KINDS: RecordKind[] = ["shravan", "manan", "nididhyasan"];

export class KnowledgeStatusService {
  constructor(private readonly store: RecordStore) {}

  async status(call: CallContext, input: KnowledgeStatusRequest): Promise<KnowledgeStatusResponse> {
    const req = StatusSchema.parse(input);
    const counts = await this.store.countRecords(call.workspaceId);
    const count = (
      kind: RecordKind,
      pick: (c: { status: string | null; childless: boolean }) => boolean = () => true,
    ) => counts.filter((c) => c.kind === kind && pick(c)).reduce((n, c) => n + c.count, 0);
    const page = await this.page(call, { kinds: STAGE_KINDS, order: "desc" }, req);
    return {
      counts: { captured: count("shravan"), reflected: count("manan"), practiced: count("nididhyasan") },
      awaiting: { reflection: count("shravan", (c) => c.childless), practice: count("manan", (c) => c.childless) },
      proposals: {
        pending: count("proposal", (c) => c.status === "pending"),
        approved: count("proposal", (c) => c.status === "approved"),
        rejected: count("proposal", (c) => c.status === "rejected"),
      },
      recent: page.rows.map(summary),
      next_cursor: page.next_cursor,
    };
  }

  async review(call: CallContext, input: KnowledgeReviewRequest): Promise<KnowledgeReviewResponse> {
    const req = ReviewSchema.parse(input);
    const kinds: RecordKind[] =
      req.needs === "reflection" ? ["shravan"] : req.needs === "practice" ? ["manan"] : ["shravan", "manan"];
    const page = await this.page(call, { kinds, order: "asc", childless: true }, req);
    return {
      items: page.rows.map((r) => ({
        ...summary(r),
        needs: r.kind === "shravan" ? ("reflection" as const) : ("practice" as const),
      })),
      next_cursor: page.next_cursor,
    };
  }

  private page(
    call: CallContext,
    q: { kinds: RecordKind[]; order: "asc" | "desc"; childless?: boolean },
    req: { limit: number; cursor?: string | undefined },
  ) {
    return pageBySeq(call.workspaceId, req, (afterSeq, limit) =>
      this.store.listRecords(call.workspaceId, { ...q, afterSeq, limit }),
    );
  }
}

/** Every stage record carries these fields (StageCommon in the contract); the title is the capture's. */
function summary(r: StoredRecord): Summary {
  const b = r.body as Summary & Partial<Pick<ShravanRecord, "source_title">> & { stage: Summary["stage"] };
  return {
    id: r.id,
    stage: b.stage,
    maturity_level: b.maturity_level,
    knowledge_maturity: b.knowledge_maturity,
    title: b.source_title ?? "",
    created_at: b.created_at,
    next_stage: b.next_stage,
    citations: b.citations,
  };
}
