// The address and navigation as the runtime's screens see them, free of React Router: a server-drawn
// first step hydrates under a small history of its own (src/app/first-step.tsx), so the router (12 KiB
// gzip) loads after hydration; every other screen is under React Router (src/app/router.tsx
// RouterNavigation). Screens of the first step read the address and navigate only through this module.
import { createContext, use, type AnchorHTMLAttributes, type MouseEvent } from 'react';

export interface AppLocation {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  /** Tells apart two visits of the same address. */
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

/** An absolute path with its query and hash, or its parts (missing parts are empty). */
export type To = string | Partial<Pick<AppLocation, 'pathname' | 'search' | 'hash'>>;

export interface Navigation {
  location: AppLocation;
  /** The route's parameters (none on the first step). */
  params: Readonly<Record<string, string | undefined>>;
  navigate: (to: To, options?: NavigateOptions) => void;
}

export const NavigationContext = createContext<Navigation | null>(null);

export function useNavigation(): Navigation {
  const navigation = use(NavigationContext);
  if (!navigation) throw new Error('useNavigation: no NavigationContext (src/app/navigation.tsx)');
  return navigation;
}

export function useAppLocation(): AppLocation {
  return useNavigation().location;
}

export function useAppNavigate(): Navigation['navigate'] {
  return useNavigation().navigate;
}

/** A modified or non-primary click, or one on a link opening elsewhere, is the browser's to follow. */
function followsInPlace(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) &&
    (target === null || target === '' || target === '_self')
  );
}

/** A real `<a href>` to a path of the runtime, followed by the runtime's navigation on a plain click. */
export function AppLink({ to, onClick, ...props }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const { navigate } = useNavigation();
  return (
    <a
      {...props}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (!followsInPlace(event)) return;
        event.preventDefault();
        navigate(to);
      }}
    />
  );
}
