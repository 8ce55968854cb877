// Child process for the cross-process atomicity test: re-ingests one document many times through its own Store.
import { openSqliteStore } from "../../src/store/sqlite/index.ts";
import { editionText, prepareDocument } from "./documents.ts";

const [file, ws, rounds] = process.argv.slice(2) as [string, string, string];
const store = openSqliteStore(file);
for (let round = 1; round <= Number(rounds); round++) {
  const { doc, chunks } = prepareDocument("doc.md", editionText(`${round % 2 ? "zebu" : "aardvark"}-${round}`));
  await store.documents.replaceDocument(ws, doc, chunks);
  await new Promise((r) => setTimeout(r, 2));
}
await store.close();
