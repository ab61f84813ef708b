// The visitor's remembered language choice, shared by the language switch and the screens' shell.
import { createContext, useContext, useSyncExternalStore } from 'react';
import { createLanguageChoiceStore, type LanguageChoiceStore } from './choice.ts';

export const LanguageChoiceContext = createContext<LanguageChoiceStore>(createLanguageChoiceStore(undefined));

export function useLanguageChoice(): [string | null, (locale: string) => void] {
  const store = useContext(LanguageChoiceContext);
  const chosen = useSyncExternalStore(store.subscribe, store.get, store.get);
  return [chosen, store.set];
}
