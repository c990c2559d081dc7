import { phrase } from '../../i18n/phrase';

/**
 * Phrases the template screens translate through a variable: the server's refusals, the spec's
 * toasts, and the categories and header formats shown by value. Listed so the i18n check covers them.
 * (The rule messages of @atende/core templateIssues are worded by their catalogue code: api/errors.ts.)
 */
export const TEMPLATE_PHRASES = [
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
