// A query's asking time as recall's `asked_at`, when its data set gives one (LongMemEval's question_date).
import type { EvalQuery } from "./types.ts";

export const askedAtOf = (q: EvalQuery): { asked_at?: string } => (q.askedAt ? { asked_at: q.askedAt } : {});
