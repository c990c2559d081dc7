import { phrase } from '../../i18n/phrase';

/** Labels shown by value (campaign and subscriber states, reply actions) and server messages shown by the screens. */
export const STATE_LABEL = {
  running: phrase('Running'),
  stopped: phrase('Stopped'),
  scheduled: phrase('Scheduled'),
  failed: phrase('Failed'),
  // List filters: where a finished run ends.
  sent: phrase('Sent'),
  completed: phrase('Completed'),
  completed_with_engagement: phrase('Completed with engagement'),
} as const;
/** A subscriber's message as the provider's receipts tell. */
export const DELIVERY_LABEL = {
  sent: phrase('Sent'),
  delivered: phrase('Delivered'),
  read: phrase('Read'),
  failed: phrase('Failed after sending'),
} as const;
export const SUBSCRIBER_STATE_LABEL = {
  pending: phrase('Pending'),
  scheduled: phrase('Sending'),
  sending: phrase('Sending'),
  sent: phrase('Sent'),
  // The message may have reached the provider; never sent again by itself.
  unknown: phrase('Outcome unknown'),
  dnd: phrase('Do not disturb'),
  completed: phrase('Completed'),
  error: phrase('Error'),
} as const;
export const ACTION_LABEL = {
  end_dnd: phrase('Add to do not disturb lists'),
  transfer_to_sector: phrase('Transfer to a sector'),
  chatbot_outbound: phrase('Hand over to a bot'),
  end_with_message: phrase('End with a message'),
} as const;
/** The entry point select's groups (inbound entry point). */
export const ENTRY_GROUP = {
  sector: phrase('Sectors'),
  menu: phrase('Menus'),
  bot: phrase('Bots'),
} as const;
export const CAMPAIGN_PHRASES = [
  phrase("The template's buttons changed: save the campaign's button actions again before starting it"),
  phrase('Stop'),
  phrase('Start'),
  phrase('Stopping'),
  phrase('Starting'),
  phrase('Você só poderá iniciar a campanha se o modelo estiver aprovado.'),
  phrase('There are no valid subscribers for this campaign'),
  phrase('Você não pode iniciar uma campanha que usa um modelo que foi deletado.'),
  phrase('Name is required'),
  phrase('Name must have less than 80 characters'),
  phrase('Channel is required'),
  phrase('A data de agendamento é obrigatória.'),
  phrase('Please, select a template'),
  phrase('Action is required'),
  phrase('This field is required'),
  phrase('Campaign successfully created'),
  phrase('Campaign successfully edited'),
  phrase('Edit campaign'),
  phrase('Add campaign'),
  phrase('Save'),
  phrase('Create campaign'),
  phrase('File parameter must be a csv file'),
  phrase('Invalid file! It must have at least name and phone'),
  // Why an import stored nothing (SUBSCRIBER_IMPORT_ERRORS, shown by ImportStatus).
  phrase('Invalid file! It could not be read as CSV, so nothing was imported'),
  phrase('Invalid file! Its text could not be read: save it as CSV (UTF-8) or Excel (.xlsx) and try again'),
  phrase('The import failed and nothing was imported. Please try again.'),
  phrase('Não é possível importar assinantes para uma campanha que teve seu template deletado'),
  phrase('Only subscribers with pending state can be deleted'),
  phrase('Every subscriber of this campaign has been sent to: add new subscribers to send again'),
] as const;

/**
 * A subscriber's recorded reply (report column): the button pressed as the template
 * wrote it, a button without an action of its own (the default action ran), or a free-text reply.
 */
export function replyActionText(value: string | null, t: (key: string, options?: Record<string, unknown>) => string): string {
  if (!value) return '--';
  if (value === 'reply') return t('Free-text reply');
  const defaulted = /^(.*) \(DEFAULT_ACTION\)$/.exec(value);
  if (defaulted) return t('{{button}} (default action)', { button: defaulted[1] });
  return value;
}
