import { DirectionProvider, MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { installFocusReturn } from '../lib/focus-return.ts';
import { theme } from '../lib/theme.ts';
import { useTranslation } from '../lib/use-translation.ts';
import { AppRoutes } from './router.tsx';

export function App() {
  const { t, language } = useTranslation();
  // Every dialog gives the focus back to the element that opened it.
  useEffect(() => installFocusReturn(), []);
  // Close buttons (dialogs, toasts, drawers) have only an ×: their name comes from here, in the
  // admin's language.
  // biome-ignore lint/correctness/useExhaustiveDependencies: t follows the language
  const localized = useMemo(
    () => mergeThemeOverrides(theme, { components: { CloseButton: { defaultProps: { 'aria-label': t('common.close') } } } }),
    [language],
  );
  return (
    <DirectionProvider>
      {/* Its style sheets are made at build time (src/theme.css, imported by main.tsx), not at each start. */}
      <MantineProvider theme={localized} withCssVariables={false} withGlobalClasses={false}>
        <AppRoutes />
      </MantineProvider>
    </DirectionProvider>
  );
}
