// The worker-thread pool: replies by request, a handler's refusal told apart from a thread that is gone, and a thread
// that died replaced by the next request.
import { afterEach, expect, it } from "vitest";
import { ThreadGone, ThreadPool } from "../../src/threads/pool.ts";

const module = new URL("./echo-thread.ts", import.meta.url);
let pool: ThreadPool<string, string>;
afterEach(() => pool.close());

it("answers each request on a thread started on demand, several in flight at once", async () => {
  pool = new ThreadPool<string, string>(module, null, 2);
  expect(pool.running).toBe(0);
  expect(await Promise.all(["a", "b", "c"].map((x) => pool.run(x)))).toEqual(["A", "B", "C"]);
  expect(pool.running).toBe(2);
});

it("a handler's refusal rejects that request only; a thread that died rejects as ThreadGone and is replaced", async () => {
  pool = new ThreadPool<string, string>(module, null, 1);
  const refused = await pool.run("refuse").catch((err: Error) => err);
  expect(refused).toBeInstanceOf(Error);
  expect(refused).not.toBeInstanceOf(ThreadGone);
  expect((refused as Error).message).toBe("refused by the handler");
  expect(await pool.run("still here")).toBe("STILL HERE");

  await expect(pool.run("die")).rejects.toBeInstanceOf(ThreadGone);
  expect(pool.running).toBe(0);
  expect(await pool.run("again")).toBe("AGAIN");
  expect(pool.running).toBe(1);
});

it("a thread exits after its idle time and the next request starts another", async () => {
  pool = new ThreadPool<string, string>(module, null, 1, 100);
  expect(await pool.run("one")).toBe("ONE");
  const until = Date.now() + 5_000;
  while (pool.running > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  expect(pool.running).toBe(0);
  expect(await pool.run("two")).toBe("TWO");
});
