import { lazy, Suspense, type ComponentType, type JSX, type ReactNode } from 'react';
import { LoadingState } from './states';

type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/**
 * A component loaded from its own chunk when first rendered (issue 13 item 1: the agent's /app loads
 * no admin, campaign, template, bot-editor or report code, and the login page no workstation code).
 * `name` is the module's named export; `fallback` shows while the chunk loads.
 */
export function lazyComponent<M, K extends keyof M & string>(load: () => Promise<M>, name: K, fallback: ReactNode = null): (props: PropsOf<M[K]>) => JSX.Element {
  const Loaded = lazy(async () => ({ default: (await load())[name] as unknown as ComponentType<PropsOf<M[K]>> }));
  function LazyComponent(props: PropsOf<M[K]>) {
    return (
      <Suspense fallback={fallback}>
        <Loaded {...(props as PropsOf<M[K]> & JSX.IntrinsicAttributes)} />
      </Suspense>
    );
  }
  LazyComponent.displayName = `Lazy(${name})`;
  return LazyComponent;
}

/** A page of its own chunk, with the loading state while it comes. */
export function lazyPage<M, K extends keyof M & string>(load: () => Promise<M>, name: K) {
  return lazyComponent(load, name, <LoadingState />);
}
