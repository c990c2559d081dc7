import type { Db, CreatedTenant } from '@atende/db';

/** The demo tenant's livechat channel "Site": a fixed id, so docs/channels.md can give the widget's address. */
export const DEMO_LIVECHAT_CHANNEL_ID = '517e0c4a-0000-4000-8000-00000000c4a7';

/** Its appearance, as Channel.config stores it: theme_data, widget_settings, custom_fields. */
const APPEARANCE = {
  theme_data: { primary_color: '#0b7285', text_color: '#ffffff', background_color: '#f1f3f5' },
  widget_settings: { title: 'Atendimento Demo', logo: null, avatar: null, background_image: null, audio_recording_allowed: false },
  custom_fields: [
    {
      key: 'pedido',
      label: 'Número do pedido',
      required: false,
      max_length: 12,
      validator: '\\d{4,12}',
      validator_message: 'Use apenas números (4 a 12 dígitos)',
    },
  ],
};

/**
 * A livechat channel entering the Support queue, with an appearance, so `pnpm start` shows the
 * website widget at /livechat/<id>. Created once; an admin's later changes are kept on re-seed.
 */
export async function seedDemoLivechat(db: Db, tenant: CreatedTenant, entrySectorId: string | null): Promise<string> {
  await db.channel.upsert({
    where: { id: DEMO_LIVECHAT_CHANNEL_ID },
    create: {
      id: DEMO_LIVECHAT_CHANNEL_ID,
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      name: 'Site',
      type: 'livechat',
      entrySectorId,
      config: APPEARANCE,
    },
    update: {},
  });
  return DEMO_LIVECHAT_CHANNEL_ID;
}
