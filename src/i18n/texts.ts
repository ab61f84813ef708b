// The texts a screen reads, whichever translator is behind them: i18next (./i18next.ts), or on a page
// the server drew, the page's own texts until i18next has loaded (./carried-texts.ts, src/app/first-step.tsx).
import { createContext, createElement, use, useSyncExternalStore, type ReactNode } from 'react';

/** What a text is given: its `{{name}}` values, `count` for plurals, `defaultValue` for a missing key. */
export type TextOptions = Record<string, unknown>;

export type Translate = (key: string, options?: TextOptions) => string;

export interface Texts {
  /** The language the screens show. */
  readonly language: string;
  readonly t: Translate;
  /** Whether `key` has a text (with `options.count`, in a plural form). */
  exists(key: string, options?: TextOptions): boolean;
  /** Shows the screens in `language`; absent until i18next has loaded, while the drawn language shows. */
  readonly showLanguage?: (language: string) => Promise<void>;
}

/** Texts that change (a language switch, a preview's overrides), read by the screens as they change. */
export interface TextsStore {
  get(): Texts;
  subscribe(listener: () => void): () => void;
}

/** A store of texts that never change. */
export function fixedTexts(texts: Texts): TextsStore {
  return { get: () => texts, subscribe: () => () => undefined };
}

const TextsContext = createContext<Texts | undefined>(undefined);

/** The screens beneath read `store`'s current texts. */
export function TextsProvider({ store, children }: { store: TextsStore; children: ReactNode }) {
  const texts = useSyncExternalStore(store.subscribe, store.get, store.get);
  return createElement(TextsContext, { value: texts }, children);
}

/** The texts of the screen being drawn, and their `t`. */
export function useTexts(): { t: Translate; texts: Texts } {
  const texts = use(TextsContext);
  if (!texts) throw new Error('useTexts needs a TextsProvider above it');
  return { t: texts.t, texts };
}
