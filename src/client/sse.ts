// Minimal text/event-stream reader for the client: yields {id, event, data} as events arrive.

export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: unknown;
}

export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  const blank = /\r?\n\r?\n/g;
  let buffer = "";
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    // Walk the events of this read by position and cut the buffer once: a read holding thousands of events (a replayed
    // log) stays linear instead of copying the rest of the buffer after each one.
    let start = 0;
    blank.lastIndex = 0;
    for (let m = blank.exec(buffer); m; m = blank.exec(buffer)) {
      const event = parseBlock(buffer.slice(start, m.index));
      start = blank.lastIndex;
      if (event) yield event;
    }
    buffer = buffer.slice(start);
  }
}

function parseBlock(block: string): SseEvent | null {
  let id: string | undefined;
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    const [field, ...rest] = line.split(":");
    const value = rest.join(":").replace(/^ /, "");
    if (field === "id") id = value;
    else if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (data.length === 0) return null;
  const text = data.join("\n");
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { id, event, data: parsed };
}
