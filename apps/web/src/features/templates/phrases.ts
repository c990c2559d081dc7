import { phrase } from '../../i18n/phrase';

/**
 * Phrases the template screens translate through a variable: the rule messages of @atende/core
 * templateIssues (shown under the fields, also answered by the api), the spec's toasts, and the
 * categories and header formats shown by value. Listed so the i18n check covers them.
 */
export const TEMPLATE_PHRASES = [
  phrase('Channel is required'),
  phrase('This channel does not support templates'),
  phrase('This field is required'),
  phrase('512 characters maximum'),
  phrase('Name can only contain lower case alphanumeric characters and underscores'),
  phrase('Invalid language'),
  phrase('Authentication templates cannot be created here'),
  phrase('Templates da categoria Autenticação não podem ser editados'),
  phrase('Invalid components'),
  phrase('WhatsApp Web channels only support standard templates'),
  phrase('60 characters maximum'),
  phrase('The header allows one variable'),
  phrase('Variables must be numbered in sequence starting at {{1}}'),
  phrase('1024 maximum characters'),
  phrase('At least one button is required'),
  phrase('Quick reply and call to action buttons cannot be mixed'),
  phrase('Maximum of 3 quick reply buttons'),
  phrase('Maximum of 2 call to action buttons'),
  phrase('Only one button of each call to action type'),
  phrase('25 characters maximum'),
  phrase('Pontos não são permitidos'),
  phrase('2000 characters maximum'),
  phrase('20 characters maximum'),
  phrase('There is already a template with this name and language on this channel'),
  phrase('The category of a template cannot be changed'),
  phrase('Template criado com sucesso'),
  phrase('Template editado com sucesso'),
  phrase('Template deletado com sucesso'),
  phrase('Are you sure? This cannot be undone.'),
  phrase('No templates found'),
  phrase('No variables are used in this template'),
  phrase('New template'),
  phrase('Edit template'),
  phrase('Submit'),
  phrase('Edit'),
  phrase('TEXT'),
  phrase('IMAGE'),
  phrase('VIDEO'),
  phrase('DOCUMENT'),
  phrase('LOCATION'),
] as const;

/** Category labels (values). */
export const CATEGORY_LABEL = {
  AUTHENTICATION: phrase('Authentication'),
  MARKETING: phrase('Marketing'),
  UTILITY: phrase('Utility'),
} as const;
