import { lazy, Suspense, useState, type ComponentType } from 'react';

/** A component whose code loads when it is first shown, or before, with `preload`. */
export type LazyPart<P extends object> = ComponentType<P> & { preload(): Promise<void> };

/** A page whose code loads when it is first shown, or before, with `preload`. */
export type LazyPage = LazyPart<Record<string, never>>;

/** The parts made with `deferredPart`, which the build's render loads before rendering a page. */
const deferred = new Set<LazyPart<never>>();

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    load().then((component) => {
      loaded = component;
    });
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  function Part(props: P) {
    // Chosen once per mount: a part loaded before its first render (as the build renders each
    // page, and as the browser hydrates a page) renders at once; else its code is awaited, in the
    // nearest Suspense boundary (while hydrating, its markup stays as the HTML had it).
    const [Ready] = useState(() => loaded);
    return Ready ? <Ready {...props} /> : <Lazy {...props} />;
  }
  return Object.assign(Part, { preload });
}

export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  return lazyPart<Record<string, never>>(load);
}

/**
 * A part of a page that the page's HTML has (the build renders it) but whose code the browser
 * loads only as hydration reaches it, after the rest of the page: inside a Suspense boundary.
 */
export function deferredPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  const part = lazyPart(load);
  deferred.add(part as LazyPart<never>);
  return part;
}

/** Loads every deferred part the loaded pages made: the build renders them whole. */
export async function preloadDeferredParts(): Promise<void> {
  await Promise.all([...deferred].map((part) => part.preload()));
}

/**
 * A dialog whose code loads when it first opens, or before, with `preload`: nothing renders until
 * then; once opened it stays mounted, so that it closes, and gives the focus back, as any dialog.
 */
export function lazyDialog<P extends { open: boolean }>(
  load: () => Promise<ComponentType<P>>,
): LazyPart<P> {
  const Part = lazyPart(load);
  function Dialog(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  }
  return Object.assign(Dialog, { preload: Part.preload });
}
