// How one serving process's event-log appends reach the others on the store (SQLite has no NOTIFY): an IPC message
// naming the streams appended to, sent once per turn of the loop however many events were written.
import type { AppendNotices } from "../../ports/event-log.ts";

const APPENDED = "smriti:appended";

/** [workspace id, stream] of each stream appended to. */
export type AppendedStreams = [string, string][];

export interface Appended {
  type: typeof APPENDED;
  streams: AppendedStreams;
}

/** A type guard for the IPC messages of one `type` (every message between these processes carries one). */
export const isMessage =
  <T extends { type: string }>(type: T["type"]) =>
  (m: unknown): m is T =>
    (m as T | null)?.type === type;

export const appended = (streams: AppendedStreams): Appended => ({ type: APPENDED, streams });
export const isAppended = isMessage<Appended>(APPENDED);
const keyOf = (workspaceId: string, stream: string) => `${workspaceId}\u0000${stream}`;

/** Notices over any carrier: `send` takes the streams appended since the last send; `receive` hears the others'. */
export function coalescedNotices(
  send: (streams: AppendedStreams) => void,
  receive: (heard: (streams: AppendedStreams) => void) => void,
): AppendNotices {
  const pending = new Map<string, [string, string]>();
  let soon: NodeJS.Immediate | null = null;
  const flush = () => {
    soon = null;
    const streams = [...pending.values()];
    pending.clear();
    send(streams);
  };
  return {
    publish(workspaceId, stream) {
      pending.set(keyOf(workspaceId, stream), [workspaceId, stream]);
      soon ??= setImmediate(flush);
    },
    listen(heard) {
      receive((streams) => {
        for (const [workspaceId, stream] of streams) heard(workspaceId, stream);
      });
    },
  };
}

/** A worker's notices: its appends go to the primary, which passes them to the other workers; theirs come back the same way. */
export function workerNotices(): AppendNotices {
  return coalescedNotices(
    (streams) => process.connected && process.send?.(appended(streams)),
    (heard) => process.on("message", (m) => isAppended(m) && heard(m.streams)),
  );
}

/** The session process's side of its notices with the serving process that started it. */
export function sessionProcessNotices(): AppendNotices {
  const notices = pairedNotices((m) => process.connected && process.send?.(m));
  process.on("message", (m) => notices.hear(m));
  return notices;
}

const FOLLOW = "smriti:follow";

/** One process tells the other it follows a stream (`on`), or no longer does. */
interface Follow {
  type: typeof FOLLOW;
  stream: [string, string];
  on: boolean;
}

const isFollow = isMessage<Follow>(FOLLOW);

export interface PairedNotices extends AppendNotices {
  /** A message from the other process (its appends and what it follows); others are ignored. */
  hear(message: unknown): void;
  /** The other process is gone (or a new one starts): it follows nothing until it says so. */
  forget(): void;
  /** The other process listens now (a new one said it is ready): it learns what this one follows. */
  meet(): void;
}

/**
 * Notices between two processes (the serving process and its session process) that tell each other which streams they
 * follow, so an append costs a message only when the other side has a reader for it: a turn writes dozens of events.
 */
export function pairedNotices(send: (message: Appended | Follow) => void): PairedNotices {
  const mine = new Map<string, number>();
  const theirs = new Set<string>();
  const listeners: ((streams: AppendedStreams) => void)[] = [];
  const told = coalescedNotices(
    (streams) => send(appended(streams)),
    (heard) => listeners.push(heard),
  );
  const tell = (key: string, on: boolean) =>
    send({ type: FOLLOW, stream: key.split("\u0000") as [string, string], on });
  return {
    publish: (workspaceId, stream) => theirs.has(keyOf(workspaceId, stream)) && told.publish(workspaceId, stream),
    listen: told.listen,
    follow(workspaceId, stream) {
      const key = keyOf(workspaceId, stream);
      const n = (mine.get(key) ?? 0) + 1;
      mine.set(key, n);
      if (n === 1) tell(key, true);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const left = (mine.get(key) ?? 1) - 1;
        if (left > 0) return void mine.set(key, left);
        mine.delete(key);
        tell(key, false);
      };
    },
    hear(message) {
      if (isAppended(message)) for (const heard of listeners) heard(message.streams);
      else if (isFollow(message)) {
        const key = keyOf(...message.stream);
        if (message.on) theirs.add(key);
        else theirs.delete(key);
      }
    },
    forget: () => theirs.clear(),
    meet() {
      for (const key of mine.keys()) tell(key, true);
    },
  };
}
