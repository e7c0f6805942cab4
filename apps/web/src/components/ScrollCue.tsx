import { Box, Text } from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../lib/use-translation.ts';
import './ScrollCue.css';

/**
 * A table that must stay a table (a diff) on a narrow screen: it scrolls sideways inside its card,
 * and says so (UI.md: a visible cue) with a line above it and a shadow at the edge that hides more.
 */
export function ScrollCue({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      const scroller = [...el.querySelectorAll<HTMLElement>('*')].find((e) => e.scrollWidth > e.clientWidth + 1 && e !== el);
      setOverflows(Boolean(scroller));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <Box ref={box} className="scroll-cue" data-scroll-cue="" data-overflows={overflows || undefined}>
      {overflows && (
        <Text size="xs" c="dimmed" px="md" pt="xs" data-testid="scroll-cue">
          {t('table.scroll_cue')}
        </Text>
      )}
      {children}
    </Box>
  );
}
