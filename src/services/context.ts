// CallContext lives in ports/call-context.ts (sessions and services share it); the services' own imports still name this path.
export type { CallContext } from "../ports/call-context.ts";
