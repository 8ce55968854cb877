// Requests from the route table's own zod schemas (through JSON Schema) as fast-check arbitraries, and the mutations
// a hostile or careless client sends instead: wrong types, huge strings, deep nesting, unknown fields, bad bytes.
import fc from "fast-check";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
};

/** Words the generated text draws on, so valid requests sometimes find what earlier ones stored. */
const WORDS = [
  "lighthouse",
  "keeper",
  "decided",
  "postgres",
  "alpha",
  "ledger",
  "we",
  "will",
  "ship",
  "friday",
  "TODO",
  "Alice",
  "Bob",
  "the",
  "design",
];
const text = (min = 1, max = 60) =>
  fc
    .array(fc.constantFrom(...WORDS), {
      minLength: Math.max(1, Math.ceil(min / 6)),
      maxLength: Math.max(1, Math.min(12, Math.ceil(max / 6))),
    })
    .map((w) => {
      const s = w.join(" ");
      return s.length > max ? s.slice(0, max) : s.length < min ? s.padEnd(min, "x") : s;
    });

function stringOf(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 200, 2_000);
  if (s.format === "date-time")
    return fc
      .date({ min: new Date("2000-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (s.format === "date")
    return fc
      .date({ min: new Date("2000-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  // Loopback only: a generated URL (an A2A agent's, say) must never reach another machine; port 9 is discard.
  if (s.format === "uri" || s.format === "url") return fc.webPath().map((p) => `http://127.0.0.1:9${p}`);
  if (s.pattern && s.pattern !== "\\S") {
    try {
      return fc
        .stringMatching(new RegExp(s.pattern))
        .filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
    } catch {
      // a pattern JavaScript cannot build: plain text below
    }
  }
  return fc.oneof(
    { weight: 4, arbitrary: text(Math.max(min, 1), Math.max(max, 1)) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 80) }) },
  );
}

function numberOf(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : -1_000);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : 1_000);
  const hi = Math.min(max, min + 10_000);
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(hi) })
    : fc.double({ min, max: hi, noNaN: true, noDefaultInfinity: true });
}

/** Values that fit the schema (as far as JSON Schema tells: refinements may still refuse some, which is fine). */
export function valid(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return fc.oneof(...branches.map((b) => valid(b, depth + 1)));
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "string":
      return stringOf(s);
    case "integer":
      return numberOf(s, true);
    case "number":
      return numberOf(s, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return depth > 4
        ? fc.constant([])
        : fc.array(s.items ? valid(s.items, depth + 1) : fc.anything(), {
            minLength: s.minItems ?? 0,
            maxLength: Math.min(s.maxItems ?? 4, 4),
          });
    case "object": {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) record[k] = valid(v, depth + 1);
      return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) as never[] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A body as sent on the wire, with the content type it claims. */
export interface WireBody {
  kind: string;
  body: string | Uint8Array | null;
  contentType: string | null;
}

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);

/** A JSON value that is not of the schema's type. */
const wrongType = (s: Schema): unknown => {
  const t = Array.isArray(s.type) ? s.type[0] : s.type;
  return t === "string"
    ? 12345
    : t === "number" || t === "integer"
      ? "twelve"
      : t === "boolean"
        ? "yes"
        : t === "array"
          ? { not: "a list" }
          : t === "object"
            ? ["not", "an", "object"]
            : true;
};

/** A valid input turned into what a careless or hostile client sends. */
export function mutated(s: Schema): fc.Arbitrary<WireBody> {
  const props = Object.entries(s.properties ?? {});
  const json = (v: unknown, kind: string): WireBody => ({
    kind,
    body: JSON.stringify(v),
    contentType: "application/json",
  });
  return fc.oneof(
    valid(s).map((v) => json(v, "valid")),
    valid(s).chain((v) =>
      props.length
        ? fc.constantFrom(...props).map(([k, p]) => json({ ...(v as object), [k]: wrongType(p) }, "wrong type"))
        : fc.constant(json(42, "wrong type")),
    ),
    valid(s).chain((v) =>
      props.length
        ? fc.constantFrom(...props).map(([k]) => json({ ...(v as object), [k]: "x".repeat(1_000_000) }, "huge string"))
        : fc.constant(json("x".repeat(1_000_000), "huge string")),
    ),
    valid(s).map((v) => json({ ...(v as object), unknown_field: { nested: [1, 2, 3] } }, "unknown field")),
    fc
      .integer({ min: 1_000, max: 100_000 })
      .map((n) => ({ kind: "deep nesting", body: deep(n), contentType: "application/json" })),
    valid(s).map((v) => {
      const bytes = new TextEncoder().encode(JSON.stringify(v));
      const bad = new Uint8Array(bytes.length + 4);
      bad.set(bytes.subarray(0, Math.max(1, bytes.length - 2)));
      bad.set([0xff, 0xfe, 0xc3, 0x28], Math.max(1, bytes.length - 2));
      return { kind: "invalid utf-8", body: bad, contentType: "application/json" };
    }),
    fc
      .constantFrom(
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
      )
      .chain((ct) => valid(s).map((v) => ({ kind: "odd content type", body: JSON.stringify(v), contentType: ct }))),
    fc
      .constantFrom('{"a":', "not json", "", "[1,2,", "\u0000\u0001", "{}{}")
      .map((b) => ({ kind: "malformed json", body: b, contentType: "application/json" })),
    fc.constant({ kind: "no body", body: null, contentType: null }),
    fc.constantFrom(null, 7, "text", [], [{}]).map((v) => json(v, "not an object")),
  );
}

export type { Schema };
