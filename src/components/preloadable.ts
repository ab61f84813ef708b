// A lazy component whose chunk can be loaded ahead (`preload`, before the runtime hydrates a
// server-drawn step: src/start.tsx). Once loaded it is drawn without suspending, so hydration never
// leaves a drawn part to be redrawn later.
import { createElement, lazy, useState, type ComponentType } from 'react';

export type Preloadable<Props extends object> = ComponentType<Props> & { preload(): Promise<unknown> };

export function preloadable<Props extends object>(load: () => Promise<{ default: ComponentType<Props> }>): Preloadable<Props> {
  let loading: Promise<{ default: ComponentType<Props> }> | undefined;
  let loaded: ComponentType<Props> | undefined;
  const preload = () =>
    (loading ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(preload);
  function PreloadableComponent(props: Props) {
    // Chosen once per instance: a later switch of element type would remount the component.
    const [Drawn] = useState<ComponentType<Props>>(() => loaded ?? (Lazy as unknown as ComponentType<Props>));
    return createElement(Drawn, props);
  }
  return Object.assign(PreloadableComponent, { preload });
}
