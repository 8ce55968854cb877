// Group commit (src/store/group-commit.ts): the writes asked for in one turn of the event loop commit as one batch,
// those asked for while it commits as the next, and a write refused in its batch fails only its own caller.
import { describe, expect, it } from "vitest";
import { GroupCommit, type Outcome } from "../../src/store/group-commit.ts";

function recorder() {
  const batches: number[][] = [];
  let release: (() => void) | null = null;
  const group = new GroupCommit<number, number>(
    async (batch) => {
      batches.push([...batch]);
      if (batch.includes(-1)) await new Promise<void>((r) => (release = r)); // held until the test lets it go
      return batch.map((w): Outcome<number> => (w === 13 ? { error: new Error("refused 13") } : { ok: w * 10 }));
    },
    () => 1,
  );
  return { group, batches, release: () => release?.() };
}

describe("GroupCommit", () => {
  it("commits the writes asked for in one turn of the loop as one batch", async () => {
    const { group, batches } = recorder();
    expect(await Promise.all([1, 2, 3, 4, 5].map((w) => group.submit(w)))).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([[1, 2, 3, 4, 5]]);
  });

  it("puts the writes asked for while a batch commits in the next batch, in order", async () => {
    const { group, batches, release } = recorder();
    const first = group.submit(-1);
    await new Promise(setImmediate); // the first batch is committing (held)
    const later = [6, 7].map((w) => group.submit(w));
    release();
    expect(await Promise.all([first, ...later])).toEqual([-10, 60, 70]);
    expect(batches).toEqual([[-1], [6, 7]]);
  });

  it("is settled only once every write asked for so far has been answered", async () => {
    const { group, release } = recorder();
    const answered: number[] = [];
    for (const w of [-1, 2]) void group.submit(w).then((r) => answered.push(r));
    const settled = group.settled().then(() => [...answered]);
    await new Promise(setImmediate);
    release();
    expect(await settled).toEqual([-10, 20]);
    await expect(group.settled()).resolves.toBeUndefined();
  });

  it("rejects only the caller of a refused write; the others of its batch commit", async () => {
    const { group } = recorder();
    const results = await Promise.allSettled([12, 13, 14].map((w) => group.submit(w)));
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([
      120,
      "refused 13",
      140,
    ]);
  });
});
