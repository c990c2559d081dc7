/** Query keys of the settings screens; the workstation's pause list is refreshed with the pauses. */
export const settingsKeys = {
  sectors: ['settings', 'sectors'] as const,
  reasons: ['settings', 'conversation-reasons'] as const,
  categories: ['settings', 'canned-categories'] as const,
  canned: ['settings', 'canned-responses'] as const,
};
