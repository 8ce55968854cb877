// Giving the event loop back in the middle of long work, so that requests which arrived meanwhile run first.
// A setImmediate scheduled from an I/O callback runs in the same turn of the loop, before the loop polls for I/O again;
// a second one, scheduled from the first, runs after that poll. So work resumes only once the sockets have been read.

/** Runs `fn` after the event loop has next polled for I/O. */
export function afterNextPoll(fn: () => void): void {
  setImmediate(() => setImmediate(fn));
}

/** Resolves after the event loop has next polled for I/O. */
export function yieldToIo(): Promise<void> {
  return new Promise((resolve) => afterNextPoll(resolve));
}

/** Whether `p` settles before the event loop next polls for I/O (a generator yielding what it has does; one awaiting a socket does not). */
export function settlesBeforeIo(p: Promise<unknown>): Promise<boolean> {
  return new Promise((resolve) => {
    const io = setImmediate(() => resolve(false));
    const now = () => {
      clearImmediate(io);
      resolve(true);
    };
    p.then(now, now);
  });
}
