// What the hosted UI server (server/ui/first-paint.ts) and the runtime's server entry
// (src/ssr/render.tsx, built by `npm run build` into dist/ui-ssr) agree on: the server reads the app, the
// entry renders the route's first step with the runtime's own components and says what the page carries
// for the client (src/ssr/first-paint.ts reads it back).

/** An app as its pages need it: the public config (server/graphql/apps/service.ts) and its text overrides. */
export interface FirstPaintApp {
  config: Record<string, unknown>;
  translations: Record<string, Record<string, unknown>>;
}

export interface FirstPaintRequest {
  /** The page's address: path and query. */
  url: string;
  /** The visitor's languages, most wanted first (the request's Accept-Language). */
  preferredLanguages: string[];
  /** The deployment's client config, as the page's #foyer-config carries it. */
  clientConfig: Record<string, unknown>;
  /** The app the server reads for `appId`; undefined when no app has that id. */
  loadApp(appId: string): Promise<FirstPaintApp | undefined>;
}

export interface FirstPaint {
  /** For the page's `<script id="foyer-first-paint" type="application/json">`; undefined: nothing to carry. */
  data?: unknown;
  /** The markup of #root; undefined when the client renders the route itself. */
  markup?: string;
  lang?: string;
  dir?: 'ltr' | 'rtl';
  title?: string;
  /** The app's stylesheet (branding tokens and custom CSS), linked in the head. */
  stylesheet?: string;
}

export type RenderFirstPaint = (request: FirstPaintRequest) => Promise<FirstPaint>;

/** The element id of the first paint's data. */
export const FIRST_PAINT_ELEMENT_ID = 'foyer-first-paint';

/** The element id of the app's stylesheet link (the server's first paint and the runtime's loadCustomCss add it). */
export const APP_STYLESHEET_ELEMENT_ID = 'foyer-custom-css';
