import i18n from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';

/** English phrases are their own keys; only plural forms need entries (i18next picks _one / _other by count). */
const EN_PLURALS: Record<string, string> = {
  '{{count}} valid subscribers_one': '{{count}} valid subscriber',
  '{{count}} valid subscribers_other': '{{count}} valid subscribers',
};

/** Portuguese when the browser language contains "pt", English otherwise. */
export const toAppLanguage = (browserLanguage: string): 'pt' | 'en' => (browserLanguage.toLowerCase().includes('pt') ? 'pt' : 'en');

i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng === 'pt' ? 'pt-BR' : 'en';
});

const initialised = i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    detection: { order: ['navigator'], caches: [], convertDetectedLanguage: toAppLanguage },
    supportedLngs: ['en', 'pt'],
    fallbackLng: 'en',
    // English phrases are the keys: a phrase missing from a dictionary shows the English text.
    // The Portuguese dictionary is its own chunk, fetched only when Portuguese is the language.
    resources: { en: { translation: EN_PLURALS } },
    partialBundledLanguages: true,
    react: { bindI18nStore: 'added' },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  });

/** Loads a language's dictionary once (English needs none: its phrases are the keys). */
export async function loadLanguage(lng: string): Promise<void> {
  if (lng !== 'pt' || i18n.hasResourceBundle('pt', 'translation')) return;
  const { pt } = await import('./pt');
  i18n.addResourceBundle('pt', 'translation', pt);
}

/** Resolves when the detected language's dictionary is in: render after it, so no English flashes first. */
export const i18nReady: Promise<void> = initialised.then(async () => {
  // The detected language (already 'pt' or 'en'), not `resolvedLanguage`: that one names a language
  // with resources, which Portuguese has not before its dictionary is in.
  const language = toAppLanguage(i18n.language ?? 'en');
  await loadLanguage(language);
  if (language === 'pt') await i18n.changeLanguage('pt');
});

export default i18n;
