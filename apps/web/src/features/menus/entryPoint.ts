import { phrase } from '../../i18n/phrase';

/** How a channel's entry point is named in lists (a bot was shown as "Sector: …"). */
export const ENTRY_POINT_KIND: Record<'sector' | 'menu' | 'bot', string> = {
  sector: phrase('Sector'),
  menu: phrase('Menu'),
  bot: phrase('Bot'),
};
