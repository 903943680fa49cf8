import { lazy, useState, type ComponentType } from 'react';

/** A page whose code loads when it is first shown, or before, with `preload`. */
export interface LazyPage {
  (): React.JSX.Element;
  preload(): Promise<void>;
}

export function lazyPage(load: () => Promise<ComponentType>): LazyPage {
  let loaded: ComponentType | undefined;
  const preload = () =>
    load().then((component) => {
      loaded = component;
    });
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  function Page() {
    // Chosen once per mount: a page loaded before its first render (as the build renders each
    // page, and as the browser hydrates it) renders at once; else its code is awaited, in the
    // nearest Suspense boundary.
    const [Ready] = useState(() => loaded);
    return Ready ? <Ready /> : <Lazy />;
  }
  return Object.assign(Page, { preload });
}
