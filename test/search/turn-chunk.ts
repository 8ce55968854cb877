// A chunk as the search feed hands it to the index, opening like a conversation turn unless told otherwise.
export const turnChunk = (id: number, sourcePath: string, authoredAt = 0, opening = `Ann: turn ${id}`) => ({
  id,
  terms: `alpha w${id}`,
  sourcePath,
  authoredAt,
  chunkHash: `h${id}`,
  opening,
});
