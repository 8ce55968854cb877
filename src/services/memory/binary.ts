// Refuses content that is not text: NUL bytes or many control/replacement characters mean a binary file.

export function looksBinary(content: string): boolean {
  if (content.includes("\u0000")) return true;
  const sample = content.slice(0, 8192);
  let odd = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || c === 0xfffd) odd++;
  }
  return sample.length > 0 && odd / sample.length > 0.05;
}
