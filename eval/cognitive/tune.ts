export async function runTuner(): Promise<void> {}
