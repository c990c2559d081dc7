import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { pt } from './pt';

/** Portuguese when the browser language contains "pt", English otherwise (spec 000 §1). */
export function browserLanguage(): 'pt' | 'en' {
  const langs = navigator.languages?.length ? navigator.languages : [navigator.language];
  return langs.some((l) => l?.toLowerCase().includes('pt')) ? 'pt' : 'en';
}

void i18n.use(initReactI18next).init({
  lng: browserLanguage(),
  fallbackLng: false,
  // English phrases are the keys: a missing translation shows the English text.
  resources: { pt: { translation: pt }, en: { translation: {} } },
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
});

export default i18n;
