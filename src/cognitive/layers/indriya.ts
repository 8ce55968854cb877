// indriya (the senses): input normalization, so invisible characters and odd Unicode forms cannot split or hide query words.
import type { Layer } from "../types.ts";

// Soft hyphen, zero-width space/joiners, direction marks, word joiner, BOM: invisible, yet they split a word for the tokenizer.
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export const indriya: Layer = {
  id: "indriya",
  job: "Normalizes the query: Unicode NFKC, invisible and control characters removed, whitespace collapsed.",
  counters: ["queries_normalized", "invisible_chars_removed"],
  perceive(q, ctx) {
    const invisible = q.text.match(INVISIBLE)?.length ?? 0;
    const text = q.text.normalize("NFKC").replace(INVISIBLE, "").replace(CONTROL, " ").replace(/\s+/g, " ").trim();
    if (text === q.text || text.length === 0) return q;
    ctx.count("queries_normalized");
    if (invisible > 0) ctx.count("invisible_chars_removed", invisible);
    return { ...q, text };
  },
};
