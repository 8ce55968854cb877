// Recall prefers what is current (issue 45 item 4) without a replacement being recorded or detected: for a question
// about the present state, the best candidates that give its value, by one speaker, are put newest first in the places
// they already held, so the set a recall returns stays the same and only their order changes.
import { LIFTED_ROWS, type BaseLift } from "../../search/types.ts";
import { askedValue } from "../../domain/time/current-values.ts";

/** The lift for a question about the present state (the `current` term of explain); none for any other question. */
export function currentFirst(question: string): BaseLift | undefined {
  const valueOf = askedValue(question);
  if (!valueOf) return undefined;
  return {
    term: "current",
    deltas: (rows) => {
      const deltas = rows.map(() => 0);
      const bySpeaker = new Map<string | null, { i: number; at: number; value: string; base: number }[]>();
      rows.slice(0, LIFTED_ROWS).forEach(({ chunk, base }, i) => {
        const stated = valueOf(chunk.text);
        if (!stated) return;
        const group = bySpeaker.get(stated.speaker) ?? [];
        group.push({ i, at: chunk.authoredAt, value: stated.value, base });
        bySpeaker.set(stated.speaker, group);
      });
      for (const group of bySpeaker.values()) {
        // A value that changed: two values, said at two times.
        if (new Set(group.map((s) => s.value)).size < 2 || new Set(group.map((s) => s.at)).size < 2) continue;
        const places = group.map((s) => s.base).sort((a, b) => b - a);
        const newestFirst = [...group].sort((a, b) => b.at - a.at || b.base - a.base);
        newestFirst.forEach((s, place) => (deltas[s.i] = places[place]! - s.base));
      }
      return deltas;
    },
  };
}
