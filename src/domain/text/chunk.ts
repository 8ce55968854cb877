// Chunking: markdown by heading sections then paragraphs, text by paragraphs, code by blank-line blocks.
import { contentHash } from "./hash.ts";
import { lineAt, lineStartsOf } from "./lines.ts";
import { splitSentences } from "./sentences.ts";

export type DocumentKind = "markdown" | "text" | "code";

/** One chunk: `text` is exactly content.slice(start, end). */
export interface ChunkDraft {
  text: string;
  hash: string;
  anchor: string;
  start: number;
  end: number;
}

/** Soft size of a chunk in characters (about 300 tokens): small paragraphs merge up to it, larger ones split. */
export const CHUNK_TARGET_CHARS = 1_200;

const MARKDOWN_EXT = /\.(md|markdown|mdx|mdown|rst|adoc)$/i;
const CODE_EXT =
  /\.(ts|tsx|js|jsx|mjs|cjs|py|rb|go|rs|java|kt|c|h|cc|cpp|hpp|cs|swift|php|scala|sh|bash|sql|lua|r|m|json|ya?ml|toml|ini|css|scss|html|vue|svelte|proto|tf)$/i;

export function inferKind(sourcePath: string): DocumentKind {
  if (MARKDOWN_EXT.test(sourcePath)) return "markdown";
  if (CODE_EXT.test(sourcePath)) return "code";
  return "text";
}

interface Block {
  start: number;
  end: number;
  section: string | null;
}

export function chunkDocument(content: string, kind: DocumentKind): ChunkDraft[] {
  const lines = lineStartsOf(content);
  const blocks =
    kind === "markdown" ? markdownBlocks(content, lines) : paragraphBlocks(content, 0, content.length, null);
  const chunks: ChunkDraft[] = [];
  for (const range of mergeBlocks(content, blocks, kind)) {
    const text = content.slice(range.start, range.end);
    const lineAnchor = `L${lineAt(lines, range.start)}-L${lineAt(lines, range.end - 1)}`;
    chunks.push({
      text,
      hash: contentHash(text),
      anchor: range.section ?? lineAnchor,
      start: range.start,
      end: range.end,
    });
  }
  return chunks;
}

/** Sections by ATX heading (ignoring fenced code), each split into paragraph blocks tagged with its heading path. */
function markdownBlocks(content: string, starts: number[]): Block[] {
  const blocks: Block[] = [];
  const path: string[] = [];
  let inFence = false;
  let sectionStart = 0;
  let section: string | null = null;
  starts.forEach((lineStart, i) => {
    const lineEnd = starts[i + 1] ?? content.length;
    const line = content.slice(lineStart, lineEnd).replace(/\r?\n$/, "");
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) return;
    blocks.push(...paragraphBlocks(content, sectionStart, lineStart, section));
    const level = (heading[1] ?? "#").length;
    path.length = Math.min(path.length, level - 1);
    path[level - 1] = heading[2] ?? "";
    section = path.filter(Boolean).join(" > ");
    sectionStart = lineStart;
  });
  blocks.push(...paragraphBlocks(content, sectionStart, content.length, section));
  return blocks;
}

/** Paragraphs (runs separated by blank lines) inside [from, to), trimmed, keeping fenced code whole. */
function paragraphBlocks(content: string, from: number, to: number, section: string | null): Block[] {
  const blocks: Block[] = [];
  const re = /\n[ \t]*\r?\n/g;
  re.lastIndex = from;
  let start = from;
  let scanned = from;
  let fenceOpen = false;
  for (let m = re.exec(content); m && m.index < to; m = re.exec(content)) {
    // Count fences only in the text since the previous blank line, so a closed fence no longer glues later paragraphs.
    const piece = content.slice(scanned, m.index);
    scanned = m.index + m[0].length;
    if ((piece.match(/^\s{0,3}(```|~~~)/gm)?.length ?? 0) % 2 === 1) fenceOpen = !fenceOpen;
    if (fenceOpen) continue;
    pushTrimmed(blocks, content, start, m.index, section);
    start = scanned;
  }
  pushTrimmed(blocks, content, start, to, section);
  return blocks;
}

function pushTrimmed(out: Block[], content: string, start: number, end: number, section: string | null): void {
  while (start < end && /\s/.test(content[start] ?? "")) start++;
  while (end > start && /\s/.test(content[end - 1] ?? "")) end--;
  if (end > start) out.push({ start, end, section });
}

/** Greedily merges neighbouring blocks of one section up to the target; splits oversize blocks by sentence. */
function mergeBlocks(content: string, blocks: Block[], kind: DocumentKind): Block[] {
  const out: Block[] = [];
  let current: Block | null = null;
  for (const block of blocks.flatMap((b) => splitOversize(content, b, kind))) {
    const headingOnly = current !== null && isLoneHeading(content, current);
    if (
      current &&
      (current.section === block.section || headingOnly) &&
      block.end - current.start <= CHUNK_TARGET_CHARS
    ) {
      current.end = block.end;
      current.section = block.section;
    } else {
      if (current) out.push(current);
      current = { ...block };
    }
  }
  if (current) out.push(current);
  return out;
}

/** A block that is only a heading line belongs with the text after it, even when that text is a sub-section. */
function isLoneHeading(content: string, block: Block): boolean {
  const text = content.slice(block.start, block.end);
  return /^#{1,6}\s/.test(text) && !text.includes("\n");
}

function splitOversize(content: string, block: Block, kind: DocumentKind): Block[] {
  if (block.end - block.start <= CHUNK_TARGET_CHARS) return [block];
  const pieces: Block[] = [];
  const spans = kind === "code" ? lineSpans(content, block) : splitSentences(content, block.start, block.end);
  for (const s of spans) {
    for (let start = s.start; start < s.end;) {
      let end = Math.min(s.end, start + CHUNK_TARGET_CHARS);
      if (end < s.end) {
        const space = content.lastIndexOf(" ", end);
        if (space > start + CHUNK_TARGET_CHARS / 2) end = space;
      }
      pushTrimmed(pieces, content, start, end, block.section);
      start = end;
    }
  }
  return pieces;
}

function lineSpans(content: string, block: Block): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let start = block.start;
  for (let nl = content.indexOf("\n", start); nl !== -1 && nl < block.end; nl = content.indexOf("\n", start)) {
    spans.push({ start, end: nl });
    start = nl + 1;
  }
  spans.push({ start, end: block.end });
  return spans;
}
