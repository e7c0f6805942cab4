import { Component, lazy, type ReactNode, Suspense } from 'react';

// Rarely needed, so not part of the first page.
const PageError = lazy(async () => ({ default: (await import('../components/StatusScreens.tsx')).PageError }));

/** Any render failure shows the generic page-error screen, and raises the global error flag. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    document.documentElement.dataset.globalError = 'true';
    console.error(error);
  }

  override render() {
    return this.state.failed ? (
      <Suspense fallback={null}>
        <PageError />
      </Suspense>
    ) : (
      this.props.children
    );
  }
}
