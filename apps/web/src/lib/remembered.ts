import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * Lazy code that React renders at once when it is already here (a cold load's screens).
 *
 * `React.lazy` suspends on first render even when the import has finished, and a Suspense
 * fallback once shown holds back the content that replaces it (React throttles the reveal, about
 * 300 ms). A module remembered here is handed over synchronously: its `then` calls back before it
 * returns, so React sees it resolved and renders the component without a fallback.
 */

/** Loads a module once, and after that hands it over synchronously. */
export function remembered<M>(load: () => Promise<M>): () => PromiseLike<M> {
  let module: M | undefined;
  let pending: Promise<M> | undefined;
  return () => {
    const ready = module;
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, one that answers at once
    if (ready !== undefined) return { then: (onLoaded) => Promise.resolve(onLoaded ? onLoaded(ready) : ready) as never };
    pending ??= load().then(
      (m) => {
        module = m;
        return m;
      },
      (error: unknown) => {
        pending = undefined; // the next visit tries again
        throw error;
      },
    );
    return pending;
  };
}

/** A lazy component: `load` imports its module (as synchronous as `load` is), `name` picks it. */
export function lazyFrom<M>(load: () => PromiseLike<M>, name: keyof M): LazyExoticComponent<ComponentType> {
  const component = (): PromiseLike<{ default: ComponentType }> => {
    const loading = load();
    return {
      // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, as synchronous as `load`'s
      then: (onLoaded, onFailed) => loading.then((m) => onLoaded?.({ default: m[name] as ComponentType }), onFailed) as never,
    };
  };
  return lazy(component as () => Promise<{ default: ComponentType }>);
}
