import type { MouseEvent } from 'react';

/**
 * For the submit button of a form that validates fields on blur: pressing the button must not
 * blur the field first. Otherwise the blur shows that field's error, the message pushes the button
 * down between mouse-down and mouse-up, and the click (and the save) is lost. Keyboard use is
 * unaffected; the submit itself still validates every field.
 */
export const keepFocusOnPress = (event: MouseEvent<HTMLElement>): void => event.preventDefault();
