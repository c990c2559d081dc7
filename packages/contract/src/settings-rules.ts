import { z } from 'zod';
import { fieldMessage } from './field-messages';

/** The messages of the settings forms, shared by the api and the screens. */
export const REQUIRED_MESSAGE = fieldMessage('field_required');
export const maxCharacters = (max: number): string => fieldMessage('field_too_long', { max });

/** A required text: trimmed, not empty, at most `max` characters. */
export const requiredText = (max: number) =>
  z.string({ message: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE).max(max, maxCharacters(max));
