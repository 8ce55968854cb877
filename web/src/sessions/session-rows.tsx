// The session list's rows: each titled by its first message or task (the id beside it), a sub-agent's session drawn
// under the session that delegated to it (issue 41).
import type { SmritiClient } from "../../../src/client/index.ts";
import { Meter } from "../ui/meter.tsx";
import { href } from "../ui/route.ts";

type Summary = Awaited<ReturnType<SmritiClient["listSessions"]>>["sessions"][number];
interface Line {
  item: Summary;
  children: Summary[];
}

/** The page's sessions in order, each sub-agent session moved under its parent when the parent is on the page (oldest first). */
export function nest(sessions: readonly Summary[]): Line[] {
  const onPage = new Set(sessions.map((s) => s.session.session_id));
  const parentOf = (s: Summary): string | null =>
    s.delegated_by && onPage.has(s.delegated_by) ? s.delegated_by : null;
  const children = new Map<string, Summary[]>();
  for (const s of sessions) {
    const parent = parentOf(s);
    if (parent) children.set(parent, [s, ...(children.get(parent) ?? [])]);
  }
  return sessions
    .filter((s) => !parentOf(s))
    .map((item) => ({ item, children: children.get(item.session.session_id) ?? [] }));
}

export function SessionRows({ lines }: { lines: Line[] }) {
  return (
    <>
      {lines.flatMap(({ item, children }) => [
        <SessionRow key={item.session.session_id} item={item} />,
        ...children.map((child) => <SessionRow key={child.session.session_id} item={child} nested />),
      ])}
    </>
  );
}

function SessionRow({ item, nested = false }: { item: Summary; nested?: boolean }) {
  const { session, kind, health, title, delegated_by: parent } = item;
  const id = session.session_id;
  return (
    <tr data-session-id={id} data-parent-id={parent ?? undefined} className={nested ? "subagent" : undefined}>
      <td>
        <a className="session-title" href={href("sessions", kind, id)}>
          {nested && <span aria-hidden="true">↳ </span>}
          {title ?? (
            <span className="muted">
              {session.parent_session_id ? "Branch, no message yet" : "New chat, no message yet"}
            </span>
          )}
        </a>
        <span className="session-id mono muted">
          {id}
          {parent && !nested && (
            <>
              {" "}
              · sub-agent of <a href={href("sessions", "chat", parent)}>{parent}</a>
            </>
          )}
        </span>
      </td>
      <td>{parent ? "sub-agent" : kind}</td>
      <td>
        <span className={`status status-${session.status}`}>{session.status}</span>
      </td>
      <td>
        {health ? (
          <span className="health-cell">
            <Meter value={health.score} label={`health of ${id}`} goodWhenHigh /> {health.score.toFixed(2)}
            {health.flags.budget ? " · over budget" : ""}
            {health.flags.stuck ? " · stuck" : ""}
          </span>
        ) : (
          <span className="muted">–</span>
        )}
      </td>
      <td>{session.provider}</td>
      <td className="muted">{session.updated_at?.replace("T", " ").slice(0, 19) ?? ""}</td>
    </tr>
  );
}
