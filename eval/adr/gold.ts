// The gold fields of an ADR file, read from its own sections by a deliberately naive line reader independent of src/domain/knowledge/decisions.ts.

export interface AdrGold {
  title: string;
  /** Lower-cased; null when the file states no status (most MADR files: the field is optional). */
  status: string | null;
  /** Nygard: first paragraph of '## Decision'. MADR: the quoted name on the 'Chosen option:' line. */
  decision: string;
  style: "madr" | "nygard";
}

export function readGold(content: string): AdrGold {
  const lines = content.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  const front: Record<string, string> = {};
  if (lines[0] === "---") {
    for (i = 1; i < lines.length && lines[i] !== "---"; i++) {
      const [key, ...rest] = (lines[i] ?? "").split(":");
      if (key && rest.length) front[key.trim().toLowerCase()] = rest.join(":").trim();
    }
    i++;
  }
  const body = lines.slice(i);
  const titleLine = body.find((l) => l.startsWith("# ")) ?? "";
  const title = titleLine
    .slice(2)
    .trim()
    .replace(/^\d+\.\s+/, "");
  const paragraphAfter = (heading: string): string | null => {
    const at = body.findIndex((l) => l.trim().toLowerCase() === heading);
    if (at === -1) return null;
    const para: string[] = [];
    for (const l of body.slice(at + 1)) {
      if (l.trim() === "" && para.length) break;
      if (l.startsWith("#")) break;
      if (l.trim()) para.push(l.trim());
    }
    return para.join(" ");
  };
  const chosen = body.find((l) => l.startsWith("Chosen option:"));
  if (chosen) {
    const rest = chosen.slice("Chosen option:".length).trim();
    const quote = rest[0] ?? "";
    const name = quote === '"' || quote === "'" ? rest.slice(1, rest.indexOf(quote, 1)) : rest.split(",")[0]!;
    return { title, status: front["status"]?.toLowerCase() || null, decision: name, style: "madr" };
  }
  return {
    title,
    status: paragraphAfter("## status")?.toLowerCase() ?? null,
    decision: paragraphAfter("## decision") ?? "",
    style: "nygard",
  };
}
