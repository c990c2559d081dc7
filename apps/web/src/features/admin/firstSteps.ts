/** Session storage key: first steps were shown in this browser session, /admin then opens the dashboard. */
export const FIRST_STEPS_SHOWN = 'atende:first-steps-shown';
