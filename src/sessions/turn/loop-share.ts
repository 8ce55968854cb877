// Where session work gives the event loop back between events. One waiting session resumes per turn of the loop, so
// however many sessions run, the loop returns to its sockets after each slice: new connections and requests first,
// sessions with what is left. (A setImmediate of its own per session would put every live session's slice in the same
// turn of the loop; Node accepts one new connection per turn, so 30 busy runs held new clients out for seconds.)
import { afterNextPoll } from "../../threads/loop-yield.ts";

const waiting: (() => void)[] = [];
let scheduled = false;

function resumeNext(): void {
  const next = waiting.shift();
  scheduled = waiting.length > 0;
  if (scheduled) setImmediate(resumeNext);
  next?.();
}

/** Resolves in a later turn of the event loop, after the sessions that yielded before this one. */
export function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!scheduled) {
      scheduled = true;
      afterNextPoll(resumeNext);
    }
  });
}
