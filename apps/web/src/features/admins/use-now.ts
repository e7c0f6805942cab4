import { useEffect, useState } from 'react';

/** The time now, renewed every `everyMs` while `active` (a countdown on screen). */
export function useNow(active: boolean, everyMs = 1_000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}
