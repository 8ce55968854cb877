// The event time a markdown note states in its front matter ('date:' between '---' fences at the very top).
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;
const DATE_LINE =
  /^(?:date|created|occurred_at)\s*:\s*["']?(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?)["']?\s*$/im;

/** Epoch ms of the front matter's date (a bare date or a time without offset is read as UTC); null when there is none. */
export function frontMatterDate(content: string): number | null {
  const block = FRONT_MATTER.exec(content)?.[1];
  const value = block === undefined ? undefined : DATE_LINE.exec(block)?.[1];
  if (value === undefined) return null;
  const iso = value.replace(" ", "T");
  const t = Date.parse(/T/.test(iso) && !/(Z|[+-]\d{2}:?\d{2})$/.test(iso) ? `${iso}Z` : iso);
  return Number.isNaN(t) ? null : t;
}
