// A chunk's BM25 terms as a set, built once per chunk object (viveka and dhyana both compare term sets).
import { perChunk } from "./per-chunk.ts";

export const termsOf = perChunk((chunk): ReadonlySet<string> => new Set(chunk.terms === "" ? [] : chunk.terms.split(" ")));
