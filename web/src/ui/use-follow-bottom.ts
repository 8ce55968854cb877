// Keeps the page scrolled to its end while new rows arrive, unless the reader scrolled up to read (a chat follows its
// newest turn). Only the reader's own moves (wheel, keys, touch, a drag) stop the following: content growing and the
// browser's own scroll adjustments do not, and reaching the end again resumes it.
import { useEffect, useRef } from "react";

const SLACK_PX = 80;
const UP_KEYS = new Set(["ArrowUp", "PageUp", "Home"]);
const nearEnd = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - SLACK_PX;

export function useFollowBottom(size: number): void {
  const following = useRef(true);
  useEffect(() => {
    const stop = () => void (following.current = nearEnd());
    const onWheel = (e: WheelEvent) => e.deltaY < 0 && (following.current = false);
    const onKey = (e: KeyboardEvent) => UP_KEYS.has(e.key) && (following.current = false);
    const onScroll = () => nearEnd() && (following.current = true);
    addEventListener("wheel", onWheel, { passive: true });
    addEventListener("keydown", onKey);
    addEventListener("touchend", stop);
    addEventListener("pointerup", stop);
    addEventListener("scroll", onScroll, { passive: true });
    return () => {
      removeEventListener("wheel", onWheel);
      removeEventListener("keydown", onKey);
      removeEventListener("touchend", stop);
      removeEventListener("pointerup", stop);
      removeEventListener("scroll", onScroll);
    };
  }, []);
  // One scroll per frame at most, after the frame's layout: a long log arriving in many batches is not laid out per batch.
  const frame = useRef(0);
  useEffect(() => {
    if (!following.current || frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      if (following.current) window.scrollTo({ top: document.documentElement.scrollHeight });
    });
  }, [size]);
  useEffect(
    () => () => {
      cancelAnimationFrame(frame.current);
      frame.current = 0; // a remount (StrictMode's, in development) schedules afresh
    },
    [],
  );
}
