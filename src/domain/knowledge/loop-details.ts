// Who owns an open loop and when it is due, where the line says so (issue 40 item 3). Pure.

const MONTH =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const WEEKDAY = "(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?";
const DATE = [
  "\\d{4}-\\d{2}-\\d{2}",
  "\\d{1,2}/\\d{1,2}(?:/\\d{2,4})?",
  `${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?`,
  `\\d{1,2}(?:st|nd|rd|th)? ${MONTH}(?:,? \\d{4})?`,
  `(?:next |this )?${WEEKDAY}`,
  "end of (?:the )?(?:day|week|month|quarter|sprint|year)",
  "eo[dwm]",
  "tomorrow|tonight|next (?:week|month|sprint|quarter)",
  "q[1-4](?: \\d{4})?",
  `${MONTH}(?: \\d{4})?`,
].join("|");
const DUE = new RegExp(`\\b(?:due(?: date)?|by|before|until|deadline)\\s*:?\\s*(${DATE})\\b`, "i");

const NAME = "[A-Z][a-z'’-]+(?: [A-Z][a-z'’-]+)?";
const OWNERS: RegExp[] = [
  /(?:^|\s)@([A-Za-z][\w.-]*[\w])/,
  /\b(?:TODO|FIXME)\(([^)]+)\)/,
  new RegExp(`\\b(?:[Oo]wner|[Aa]ssignee|[Aa]ssigned to|[Oo]wned by)\\s*[:=]?\\s*(${NAME})`),
  // "Bob to send the invoice": the meeting-minutes form of an assignment.
  new RegExp(`^(?:[-*+]|\\d+[.)])?\\s*(?:\\[ \\]\\s*)?(?:(?:TODO|Action|AI)\\s*:?\\s*)?(${NAME}) (?:to|will) [a-z]`),
  new RegExp(`\\((${NAME})\\)\\s*[.?!]?\\s*$`),
];
/** Words that look like a name at a line's start but are not one. */
const NOT_NAMES = new Set([
  "We",
  "They",
  "Someone",
  "Nobody",
  "Need",
  "Who",
  "What",
  "Open",
  "Next",
  "Decide",
  "Figure",
  "Question",
  "Team",
  "The",
]);

export function ownerOf(line: string): string | null {
  for (const re of OWNERS) {
    const name = re.exec(line)?.[1]?.trim();
    if (name && !NOT_NAMES.has(name.split(" ")[0] ?? "")) return name;
  }
  return null;
}

export function dueOf(line: string): string | null {
  return DUE.exec(line)?.[1] ?? null;
}
