// Builds the GloVe binary cache once before any test file needs it (first run converts the 307 MB JSON).
import { ensureGloveCache } from "../src/embed/glove.ts";

export default async function setup(): Promise<void> {
  await ensureGloveCache();
}
