// Full-page moves of the runtime (to the authorization server, to an app), through the client
// configuration's redirect switches (docs/SPEC.md section 4, "Redirect helper"): with `disableRedirects`
// a move is only logged, so a developer can read where it would have gone; in `debug` mode it waits
// three seconds first, long enough to read the console.
import type { ClientConfig } from '../config.ts';

export const DEBUG_REDIRECT_DELAY_MS = 3000;

export interface Redirect {
  /** Opens `url`, keeping the current page in the history. */
  assign(url: string): void;
  /** Opens `url` in place of the current page (sign-in redirects must not trap "back"). */
  replace(url: string): void;
}

export interface RedirectTarget {
  assign(url: string): void;
  replace(url: string): void;
}

export function createRedirect(
  config: Pick<ClientConfig, 'disableRedirects' | 'debug'>,
  target: RedirectTarget = globalThis.location,
  log: (message: string) => void = (message) => console.info(message),
): Redirect {
  const move = (kind: keyof RedirectTarget) => (url: string) => {
    if (config.disableRedirects) {
      log(`Redirect (${kind}) to ${url} not followed: disableRedirects is set`);
      return;
    }
    if (config.debug) {
      log(`Redirect (${kind}) to ${url} in ${DEBUG_REDIRECT_DELAY_MS / 1000} s (debug)`);
      setTimeout(() => target[kind](url), DEBUG_REDIRECT_DELAY_MS);
      return;
    }
    target[kind](url);
  };
  return { assign: move('assign'), replace: move('replace') };
}
