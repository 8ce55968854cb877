// ahamkara (the self): who is asking. "I", "my", "me" in a query mean the calling actor, so its id joins the search terms.
import { tokenize } from "../../domain/text/tokenize.ts";
import type { Layer } from "../types.ts";

const SELF = /\b(i|me|my|mine|myself)\b/i;

export const ahamkara: Layer = {
  id: "ahamkara",
  job: "Resolves first-person words in a query to the calling actor (x-svc-actor-id) and adds the actor's name as a search term.",
  counters: ["self_references_resolved"],
  perceive(q, ctx) {
    if (!q.actorId || !SELF.test(q.original)) return q;
    const have = new Set(tokenize(q.text));
    const terms = tokenize(q.actorId.replace(/[-_.]+/g, " ")).filter((t) => !have.has(t));
    if (terms.length === 0) return q;
    ctx.count("self_references_resolved");
    return {
      ...q,
      expansion: [...q.expansion, ...terms.map((term) => ({ term, weight: ctx.params.ahamkara.weight }))],
    };
  },
};
