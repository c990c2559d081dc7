import { lazy, Suspense, useState, type ComponentType, type JSX, type ReactNode } from 'react';
import { LoadingState } from './states';

type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/**
 * A component loaded from its own chunk when first rendered (the agent's /app loads
 * no admin, campaign, template, bot-editor or report code, and the login page no workstation code).
 * `name` is the module's named export; `fallback` shows while the chunk loads.
 */
export function lazyComponent<M, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
  fallback: ReactNode = null,
): ((props: PropsOf<M[K]>) => JSX.Element) & { preload: () => Promise<void> } {
  type C = ComponentType<PropsOf<M[K]>>;
  // Once the chunk is in (preloaded), the component renders at once: no suspending, no fallback.
  let ready: C | null = null;
  let pending: Promise<C> | null = null;
  const fetch = () => (pending ??= load().then((m) => (ready = m[name] as unknown as C)));
  const Loaded = lazy(async () => ({ default: await fetch() }));
  function LazyComponent(props: PropsOf<M[K]>) {
    const attrs = props as PropsOf<M[K]> & JSX.IntrinsicAttributes;
    // Decided once per mount: switching paths later would remount the component and lose its state.
    const [Ready] = useState<C | null>(() => ready);
    if (Ready) return <Ready {...attrs} />;
    return (
      <Suspense fallback={fallback}>
        <Loaded {...attrs} />
      </Suspense>
    );
  }
  LazyComponent.displayName = `Lazy(${name})`;
  return Object.assign(LazyComponent, { preload: () => fetch().then(() => undefined) });
}

/** A page of its own chunk, with the loading state while it comes. */
export function lazyPage<M, K extends keyof M & string>(load: () => Promise<M>, name: K) {
  return lazyComponent(load, name, <LoadingState />);
}
