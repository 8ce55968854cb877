// A plain-text document's title: its first paragraph when that is a single short line with more text after it (a
// paper's title above its abstract, a note's subject line). Search weighs it as a field of every chunk.

/** Longer than this, a first line is a paragraph rather than a title. */
const TITLE_MAX_CHARS = 300;

/** The title and where it ends in `content`, or null when the document opens with no title line. */
export function documentTitle(content: string): { text: string; end: number } | null {
  const m = /^[ \t]*(\S[^\n]*?)[ \t]*\r?\n[ \t]*\r?\n\s*\S/.exec(content);
  if (!m || m[1]!.length > TITLE_MAX_CHARS) return null;
  return { text: m[1]!, end: m.index + m[0].indexOf(m[1]!) + m[1]!.length };
}
