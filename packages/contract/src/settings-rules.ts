import { z } from 'zod';

/** The messages of the settings forms, shared by the api and the screens. */
export const REQUIRED_MESSAGE = 'This field is required';
export const maxCharacters = (max: number): string => `${max} characters maximum`;

/** A required text: trimmed, not empty, at most `max` characters. */
export const requiredText = (max: number) =>
  z.string({ message: REQUIRED_MESSAGE }).trim().min(1, REQUIRED_MESSAGE).max(max, maxCharacters(max));
