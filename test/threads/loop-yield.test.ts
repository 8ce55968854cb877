// Work that yields with yieldToIo resumes after the socket reads that became ready while it ran, even when it runs in
// an I/O callback (where a lone setImmediate would resume it before the loop reads its sockets again).
import { describe, expect, it } from "vitest";
import { yieldToIo } from "../../src/threads/loop-yield.ts";
import { orderAgainstRead } from "../helpers/socket-pair.ts";

describe("yieldToIo", () => {
  it("resumes after a read that became ready during the I/O callback it was called in", async () => {
    expect(await orderAgainstRead(yieldToIo)).toEqual(["second", "done"]);
  });

  it("(the control) a lone setImmediate resumes before that read", async () => {
    expect(await orderAgainstRead(() => new Promise<void>((r) => setImmediate(r)))).toEqual(["done", "second"]);
  });
});
