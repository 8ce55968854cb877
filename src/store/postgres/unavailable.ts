// A lost database connection is the caller's 503 store_unavailable (retry shortly), never a 500 or a crash. The pool
// opens fresh connections by itself, so the next request after the server is back succeeds.
import { AppError, STORE_RETRY_SECONDS } from "../../contract/errors.ts";
import type { Store } from "../../ports/store.ts";

// Connection-level failures: socket errors, and PostgreSQL's connection exceptions (08), shutdowns and start-ups (57P).
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
]);
const LOST =
  /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect/i;

export function isConnectionLoss(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && (SOCKET_CODES.has(code) || code.startsWith("08") || code.startsWith("57P")))
    return true;
  return LOST.test(err.message);
}

const unavailable = (err: Error) =>
  new AppError("store_unavailable", `the database is unreachable (${err.message}); retry in ${STORE_RETRY_SECONDS} s`, {
    retry_after_seconds: STORE_RETRY_SECONDS,
  });

/** The store with every port method's connection losses turned into store_unavailable (other errors pass unchanged). */
export function guardConnectionLoss(store: Store): Store {
  const { close, ...ports } = store;
  const guarded = Object.fromEntries(
    Object.entries(ports).map(([name, port]) => [name, guard(port as object)]),
  ) as Omit<Store, "close">;
  return { ...guarded, close };
}

function guard<T extends object>(port: T): T {
  const rethrow = (err: unknown): never => {
    throw isConnectionLoss(err) ? unavailable(err as Error) : err;
  };
  return new Proxy(port, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        let out: unknown;
        try {
          out = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (err) {
          return rethrow(err);
        }
        return out instanceof Promise ? out.catch(rethrow) : out;
      };
    },
  });
}
