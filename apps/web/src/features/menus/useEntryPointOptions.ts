import { mayUse } from '@atende/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useMe, useTenant } from '../../session/session';
import { botKeys } from '../bots/BotsPage';
import { menuKeys } from './MenusPage';

/**
 * A channel's entry point choices: sectors, menus and bots grouped, values
 * `type:uuid`; a disabled menu cannot be chosen; bots only where the role matrix lets this user list
 * them (flag bots_interface on).
 */
export function useEntryPointOptions() {
  const { t } = useTranslation();
  const sectors = useQuery({ queryKey: ['sectors', 'all'], queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data });
  const menus = useQuery({ queryKey: menuKeys.all, queryFn: async () => (await api.listAutomatedMenus({})).data });
  const roles = (useMe().data?.roles ?? []).map((r) => r.name);
  const features = useTenant().data?.config.features ?? {};
  const bots = useQuery({
    queryKey: botKeys.all,
    queryFn: async () => (await api.listBots({})).data,
    enabled: mayUse(roles, features, 'bots.read'),
  });
  return [
    { group: t('Sectors'), items: (sectors.data ?? []).map((s) => ({ value: `sector:${s.uuid}`, label: s.name })) },
    { group: t('Menus'), items: (menus.data ?? []).map((m) => ({ value: `menu:${m.uuid}`, label: m.name, disabled: !m.enabled })) },
    { group: t('Bots'), items: (bots.data ?? []).map((b) => ({ value: `bot:${b.uuid}`, label: b.name })) },
  ];
}

/** `type:uuid` as the channel calls take it; null clears (the workspace queue). */
export function entryPointOf(value: string | null): { entry_point: string | null; entry_point_type: 'sector' | 'menu' | 'bot' } {
  if (!value) return { entry_point: null, entry_point_type: 'sector' };
  const [type, uuid] = value.split(':') as ['sector' | 'menu' | 'bot', string];
  return { entry_point: uuid, entry_point_type: type };
}
