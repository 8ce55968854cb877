// A labelled set of open loops in note styles people write (issue 40 item 3), written for this project: each note
// with the lines a reader would call still open (a unique substring of each), and the owner and due date it states.

export interface LabelledLoop {
  /** A substring found on exactly one line of the note. */
  line: string;
  owner?: string;
  due?: string;
}

export interface LabelledNote {
  name: string;
  content: string;
  open: LabelledLoop[];
}

export const LABELLED_NOTES: LabelledNote[] = [
  {
    name: "tour infra note",
    content: "# Infrastructure\n\n## Staging\n\nThe staging cluster moves to eu-west-2 on Monday.\n\nOpen question: who pays for the extra brokers?\n",
    open: [{ line: "who pays for the extra brokers" }],
  },
  {
    name: "design doc with open questions and risks",
    content: `# RFC: event bus

## Summary

We move service events from polling to a Kafka topic per domain. Why now? Polling costs us 30% of the database.

## Open questions

- How long do we retain events? Legal says 90 days, product wants a year.
- Schema registry: Confluent or Apicurio?
- Do consumers need exactly-once delivery?

## Risks

- Broker operations are new to the team.
- What happens when a consumer falls a week behind?

## Decision

We go with Kafka on the platform team's cluster.
`,
    open: [{ line: "How long do we retain events" }, { line: "Schema registry: Confluent or Apicurio?" }, { line: "exactly-once delivery" }, { line: "falls a week behind" }],
  },
  {
    name: "meeting minutes with action items",
    content: `Weekly sync, 3 June

Attendees: Priya, Tom, Alice Chen

Discussed the Q3 roadmap. Tom asked whether we can drop IE11; agreed yes.

Action items:
- Priya to update the pricing page by Friday
- Tom will ping legal about the DPA (owner: Tom, due 2024-06-10)
- Alice Chen to book the offsite venue

Notes: the offsite is in September.
`,
    open: [{ line: "Priya to update", owner: "Priya", due: "Friday" }, { line: "ping legal", owner: "Tom", due: "2024-06-10" }, { line: "book the offsite", owner: "Alice Chen" }],
  },
  {
    name: "task list with checkboxes",
    content: `# Release 2.4

- [x] Cut the release branch
- [x] Update the changelog
- [ ] Run the load test @dmitri
- [ ] Publish the migration guide (due Jun 14)
- [ ] ~~Ship the beta flag~~ dropped
* [ ] Tell support
`,
    open: [{ line: "Run the load test", owner: "dmitri" }, { line: "migration guide", due: "Jun 14" }, { line: "Tell support" }],
  },
  {
    name: "code with markers",
    content: `export function retry(fn: () => Promise<void>) {
  // TODO(maria): cap the backoff
  // FIXME: this swallows AbortError
  // Why do we retry here? Because the SDK does not.
  return fn();
}
`,
    open: [{ line: "cap the backoff", owner: "maria" }, { line: "swallows AbortError" }],
  },
  {
    name: "proposed ADR with TBD",
    content: `# 7. Use OpenTelemetry for tracing

Status: proposed

## Context

Tracing is split between Jaeger clients and vendor agents. Which one survives?

## Decision

Adopt the OpenTelemetry SDK in every service. Sampling rate: TBD.

## Consequences

Vendor agents go away. The collector's hosting is still unresolved.
`,
    open: [{ line: "Sampling rate: TBD" }, { line: "still unresolved" }],
  },
  {
    name: "daily note in prose",
    content: `# 2024-05-02

Paired with Sam on the flaky test. It was a timezone bug: why did CI run in UTC+2? Fixed.

Lunch with the data team. They asked if we could share the events table; I said yes.

Decided: we keep the nightly job for now.
`,
    open: [],
  },
  {
    name: "retro notes",
    content: `## Retro, sprint 14

### What went well
- Deploys were boring
- Did we finally fix the pager noise? Yes!

### What didn't
- Too many meetings

### Follow-ups
- Cap meetings at 10 hours a week (Jordan)
- Revisit on-call rotation before end of sprint
`,
    open: [{ line: "Cap meetings", owner: "Jordan" }, { line: "Revisit on-call", due: "end of sprint" }],
  },
  {
    name: "resolved questions",
    content: `# Migration FAQ

## Open questions

- ~~Do we keep the old API?~~ No, it goes in July.
- Who migrates the reports? RESOLVED: the BI team.
- Can tenants opt out? (answered)
- What about the audit export?
`,
    open: [{ line: "audit export" }],
  },
  {
    name: "plain text with labels",
    content: `Project Falcon status

Blocked on the vendor contract.

Next steps:
- sign the DPA
- schedule the kickoff with @lee by next week

Budget is approved.
`,
    open: [{ line: "sign the DPA" }, { line: "schedule the kickoff", owner: "lee", due: "next week" }],
  },
  {
    name: "decision log with an undecided point",
    content: `# Decisions

- 2024-03-01: We picked PostgreSQL. Alice Chen made the call.
- 2024-03-08: Backups go to S3 with 30-day retention.
- Whether read replicas are worth it is undecided.
- Question: do we need point-in-time recovery?
`,
    open: [{ line: "undecided" }, { line: "point-in-time recovery" }],
  },
  {
    name: "readme with a roadmap",
    content: `# fastcsv

A CSV parser. How fast is it? About 1 GB/s on one core.

## Usage

\`\`\`js
// TODO is not a loop inside this usage sample's prose? It is: a marker in code stays a marker.
const rows = parse(text);
\`\`\`

## Roadmap

- [ ] Streaming API
- [x] Quoted fields
`,
    open: [{ line: "TODO is not a loop" }, { line: "Streaming API" }],
  },
];
