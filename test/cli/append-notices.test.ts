// The notices between the serving process and its session process: an append is told only where it is followed.
import { describe, expect, it } from "vitest";
import { pairedNotices, type PairedNotices } from "../../src/sessions/process/append-notices.ts";

/** Two paired notices wired to each other, each counting the messages it sent; `heard` lists what B's listener heard. */
function pair() {
  const sent = { a: 0, b: 0 };
  let a: PairedNotices | null = null;
  let b: PairedNotices | null = null;
  a = pairedNotices((m) => (sent.a++, b!.hear(m)));
  b = pairedNotices((m) => (sent.b++, a!.hear(m)));
  const heard: string[] = [];
  b.listen((ws, stream) => heard.push(`${ws}/${stream}`));
  return { a, b, sent, heard };
}

const turnOfLoop = () => new Promise((r) => setImmediate(r));

describe("paired append notices", () => {
  it("send nothing for a stream the other side does not follow", async () => {
    const { a, sent, heard } = pair();
    for (let i = 0; i < 30; i++) a.publish("ws", "s1");
    await turnOfLoop();
    expect(sent.a).toBe(0);
    expect(heard).toEqual([]);
  });

  it("tell a followed stream's appends once per turn of the loop, and stop when the last follower leaves", async () => {
    const { a, b, sent, heard } = pair();
    const one = b.follow!("ws", "s1");
    const two = b.follow!("ws", "s1");
    expect(sent.b).toBe(1); // one follow message for the stream, however many followers
    a.publish("ws", "s1");
    a.publish("ws", "s1");
    a.publish("ws", "s2");
    await turnOfLoop();
    expect(heard).toEqual(["ws/s1"]);
    one();
    one(); // twice is once
    a.publish("ws", "s1");
    await turnOfLoop();
    expect(heard).toEqual(["ws/s1", "ws/s1"]);
    two();
    expect(sent.b).toBe(2);
    a.publish("ws", "s1");
    await turnOfLoop();
    expect(heard).toEqual(["ws/s1", "ws/s1"]);
  });

  it("forgets what a gone peer followed, and tells a new one what is followed here when it meets it", async () => {
    const { a, b, heard } = pair();
    b.follow!("ws", "s1");
    a.follow!("ws", "mine");
    a.forget(); // b restarted, as far as a knows: its follows are gone until it says them again
    a.publish("ws", "s1");
    await turnOfLoop();
    expect(heard).toEqual([]);
    b.meet(); // and b tells a what it follows
    a.publish("ws", "s1");
    await turnOfLoop();
    expect(heard).toEqual(["ws/s1"]);
  });
});
