import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { pt } from './pt';

/** Spec 000 §1: Portuguese when the browser language contains "pt", English otherwise. */
export const toAppLanguage = (browserLanguage: string): 'pt' | 'en' => (browserLanguage.toLowerCase().includes('pt') ? 'pt' : 'en');

i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng === 'pt' ? 'pt-BR' : 'en';
});

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    detection: { order: ['navigator'], caches: [], convertDetectedLanguage: toAppLanguage },
    supportedLngs: ['en', 'pt'],
    fallbackLng: 'en',
    // English phrases are the keys: a phrase missing from a dictionary shows the English text.
    resources: { pt: { translation: pt }, en: { translation: {} } },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  });

export default i18n;
