import { DEFAULT_LIVECHAT_APPEARANCE } from '@atende/contract';
import { z } from 'zod';
import type { ChannelDefinition } from '../definition';
import { LivechatAdapter } from './adapter';

/** The livechat widget: no provider, no secrets; its appearance lives in the channel's config. */
export const livechatChannel: ChannelDefinition = {
  types: ['livechat'],
  settingsSchema: z.looseObject({}),
  secretsSchema: z.looseObject({}),
  createAdapter: () => new LivechatAdapter(),
  hasAppearance: true,
  initialConfig: ({ name }) => ({
    ...DEFAULT_LIVECHAT_APPEARANCE,
    widget_settings: { ...DEFAULT_LIVECHAT_APPEARANCE.widget_settings, title: name.slice(0, 60) },
  }),
};
