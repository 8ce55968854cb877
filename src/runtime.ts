// What transports need from the composed service: auth, operation handlers, and housekeeping.
import type { AuthService } from "./services/auth.ts";
import type { Handlers } from "./services/handlers.ts";

export interface Runtime {
  version: string;
  auth: AuthService;
  handlers: Handlers;
  log: (msg: string) => void;
  close(): Promise<void>;
}
