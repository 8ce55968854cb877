// Typed helpers over a forked process's IPC channel.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Forks a bench TypeScript module with tsx, passing `init` as the first message. */
export function forkClient(relativeUrl: string, init: unknown): ChildProcess {
  const child = fork(fileURLToPath(new URL(relativeUrl, import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  child.send(init as object);
  return child;
}

/** The next message from the child satisfying `match`. */
export function nextMessage<T>(child: ChildProcess, match: (m: unknown) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: unknown) => {
      if (!match(m)) return;
      cleanup();
      resolve(m as T);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`bench client exited (code ${code}) before answering`));
    };
    const cleanup = () => {
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    child.on("message", onMessage);
    child.on("exit", onExit);
  });
}

export const isType = (type: string) => (m: unknown) =>
  typeof m === "object" && m !== null && (m as { type?: unknown }).type === type;

/** Sends from inside a child and resolves once the message is flushed. */
export function reply(message: object): Promise<void> {
  return new Promise((resolve, reject) =>
    process.send!(message, (err: Error | null) => (err ? reject(err) : resolve())),
  );
}
