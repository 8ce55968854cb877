// A route row's schemas as the JSON Schema tool callers read (MCP clients, and the models a session offers tools to).
import { z } from "zod";

export type JsonObjectSchema = {
  type?: unknown;
  properties?: Record<string, unknown>;
  required?: string[];
  anyOf?: JsonObjectSchema[];
  [k: string]: unknown;
};

// draft-7 like the MCP SDK's own McpServer, because the SDK client validates outputSchema with a draft-07 Ajv.
export const toolSchema = (schema: z.ZodType, io: "input" | "output") =>
  objectSchema(z.toJSONSchema(schema, { io, target: "draft-7", unrepresentable: "any" }) as JsonObjectSchema);

/** Tools want `type: "object"` at the top: a union of objects (forget's "exactly one of") becomes one object with oneOf on required keys. */
function objectSchema(js: JsonObjectSchema): JsonObjectSchema {
  if (js.type === "object" || !js.anyOf?.every((s) => s.type === "object")) return js;
  const { anyOf, ...rest } = js;
  return {
    ...rest,
    type: "object",
    properties: Object.assign({}, ...anyOf.map((s) => s.properties ?? {})) as Record<string, unknown>,
    additionalProperties: false,
    oneOf: anyOf.map((s) => ({ required: s.required ?? [] })),
  };
}
