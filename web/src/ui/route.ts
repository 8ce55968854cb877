// The console's address is its hash (#/sessions/<id>), so /console serves one page and links still bookmark.
import { useEffect, useState } from "react";

export const parts = (): string[] =>
  location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);

export function useRoute(): string[] {
  const [route, setRoute] = useState(parts);
  useEffect(() => {
    const onChange = () => setRoute(parts());
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return route;
}

export const href = (...segments: string[]): string => `#/${segments.map(encodeURIComponent).join("/")}`;
export const go = (...segments: string[]): void => void (location.hash = href(...segments));
