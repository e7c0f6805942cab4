import { Image } from '@mantine/core';
import type { ReactNode } from 'react';
import { useLogoQuery } from './api.ts';

/** The team's uploaded logo, or `fallback` when there is none (or while it loads). */
export function TeamLogo({ height, fallback = null, testId }: { height: number; fallback?: ReactNode; testId: string }) {
  const logo = useLogoQuery();
  if (!logo.data) return fallback;
  return <Image src={logo.data.url} alt="" h={height} w="auto" maw={height * 4} fit="contain" data-testid={testId} />;
}
