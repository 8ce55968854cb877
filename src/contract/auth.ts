// Who-am-i as a row of the route table: a client learns its token's workspace, actors and scopes (the console hides what they forbid).
import { z } from "zod";
import { op } from "./route.ts";
import { Scope } from "./scopes.ts";

export const WhoAmI = z.object({
  workspace_id: z.string(),
  workspace: z.string(),
  token_id: z.string(),
  actor_id: z.string().nullable().describe("The x-svc-actor-id this request sent, if any."),
  actors: z.array(z.string()).describe("The actor ids this token may send as x-svc-actor-id."),
  scopes: z.array(Scope).describe("What this token may do (README 'Tokens and scopes')."),
});
export type WhoAmI = z.infer<typeof WhoAmI>;

export const authRoutes = {
  whoami: op({
    method: "GET",
    path: "/v1/auth/whoami",
    scope: "none",
    summary: "This token: its workspace, id, allowed actors and scopes",
    description: "Any valid token may ask: a client learns what it may call before it calls it.",
    input: z.strictObject({}),
    output: WhoAmI,
  }),
};
