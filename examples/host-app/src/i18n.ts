// The example's own texts (English only), so that nothing on its screens is written inline.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';

export async function startI18n(): Promise<void> {
  await i18next.use(initReactI18next).init({ lng: 'en', fallbackLng: 'en', resources: { en: { translation: en } } });
  document.title = i18next.t('app.title');
}
