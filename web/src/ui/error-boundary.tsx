// Catches what a page throws while it renders or unmounts, so the shell (navigation, sign-in) stays and says what failed.
import { Component, type ErrorInfo, type ReactNode } from "react";

interface Props {
  /** What failed, in the operator's words ("the memory page"). */
  what: string;
  children: ReactNode;
}

export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`console: ${this.props.what} failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <section className="panel crash" role="alert" data-testid="page-error">
        <h2>{capitalize(this.props.what)} failed</h2>
        <p>
          <code>{error.message}</code>
        </p>
        <p className="muted">You are still signed in; the other pages work. Try again, or pick a page above.</p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </section>
    );
  }
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
