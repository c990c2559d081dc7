import type { ChannelDefinition } from '../definition';
import { EmailAdapter } from './adapter';
import { forwardingAddress } from './listener';
import { EmailSecretsSchema, EmailSettingsSchema } from './settings';

/**
 * E-mail: replies through the mailbox's own SMTP server; mail forwarded to an address of ours that
 * carries the channel's secret, or read from the mailbox over IMAP by the worker when imap_host is set.
 */
export const emailChannel: ChannelDefinition = {
  types: ['email'],
  settingsSchema: EmailSettingsSchema,
  secretsSchema: EmailSecretsSchema,
  createAdapter: (options) => new EmailAdapter({ outbound: options.outbound, ...options.email }),
  // The forwarding address names the channel itself (its uuid), so it is unique by construction; kept for a uniform rule.
  identity: (_settings, _secrets, channelId) => ({ identity: `email:${channelId.replace(/-/g, '').toLowerCase()}`, field: null }),
  // The forwarding address carries the channel's secret (ours): answered at creation, and later only to channel managers.
  onCreate: ({ id, secrets, newSecret, emailInboundDomain }) => {
    secrets.webhook_secret = newSecret();
    return forwardingAddress(id, secrets.webhook_secret, emailInboundDomain);
  },
  inboundAddress: ({ id, secrets, emailInboundDomain }) =>
    typeof secrets.webhook_secret === 'string' ? forwardingAddress(id, secrets.webhook_secret, emailInboundDomain) : null,
  ownsWebhookSecret: true,
  settingsIssue: (settings) => {
    const parsed = EmailSettingsSchema.safeParse(settings);
    if (parsed.success) return null;
    const issue = parsed.error.issues[0]!;
    return { path: String(issue.path[0] ?? 'smtp_host'), message: issue.message };
  },
  hostSettings: ['smtp_host', 'imap_host'],
  senderIsEmail: true,
  emailThreads: true,
};
