import { DirectionProvider, MantineProvider } from '@mantine/core';
import { AppRoutes } from './router.tsx';
import { theme } from './theme.ts';

export function App() {
  return (
    <DirectionProvider>
      <MantineProvider theme={theme}>
        <AppRoutes />
      </MantineProvider>
    </DirectionProvider>
  );
}
