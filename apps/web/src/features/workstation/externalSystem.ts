/** The tenant's external system entry, present only when its url is set. */
export function externalSystem(flags: Record<string, unknown>): { url: string; label: string | null } | null {
  const url = flags.external_system_url;
  if (typeof url !== 'string' || !url.trim()) return null;
  const label = flags.external_system_label;
  return { url: url.trim(), label: typeof label === 'string' && label.trim() ? label.trim() : null };
}
