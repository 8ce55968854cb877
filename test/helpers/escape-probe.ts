// A command that tries to leave its sandbox and says how far it got, one `name=yes|no` line each (uid: its user id).
// Run as a catalog agent with its inputs as shell assignments on stdin (the task): DATA (the data directory), OTHER
// (another workspace's task workspace), OPEN (a folder anyone may write to), PORT (the service's own port).
export const ESCAPE_PROBE = [
  'eval "$(cat)"',
  "echo uid=$(id -u)",
  "cat /etc/shadow >/dev/null 2>&1 && echo shadow=yes || echo shadow=no",
  'ls "$DATA" 2>/dev/null | grep -q smriti && echo data=yes || echo data=no',
  'cat "$DATA/smriti.db" >/dev/null 2>&1 && echo db=yes || echo db=no',
  'cat "$OTHER/secret.txt" >/dev/null 2>&1 && echo other=yes || echo other=no',
  '(echo x > "$OPEN/escaped") 2>/dev/null && echo outside=yes || echo outside=no',
  "echo x > inside.txt && echo inside=yes",
  `node -e 'const s=require("net").connect(+process.argv[1],"127.0.0.1");s.on("connect",()=>{console.log("service=yes");process.exit(0)});s.on("error",()=>{console.log("service=no");process.exit(0)})' "$PORT"`,
].join("\n");

/** The probe's stdin. */
export const probeTask = (v: { data: string; other?: string; open: string; port: number }) =>
  `DATA='${v.data}'\nOTHER='${v.other ?? "/nonexistent"}'\nOPEN='${v.open}'\nPORT='${v.port}'`;

/** The probe's output as name -> value. */
export const probeReport = (output: string): Record<string, string> =>
  Object.fromEntries(
    output
      .trim()
      .split("\n")
      .map((l) => l.split("=") as [string, string]),
  );
