import { ActionIcon, NavLink, Stack, Tooltip } from '@mantine/core';
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { IconLayoutSidebarLeftCollapse, IconLayoutSidebarLeftExpand } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink } from 'react-router';

export interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
  badge?: ReactNode;
  end?: boolean;
}

/** The navigation's widths, open and folded to its icons. */
export const NAV_WIDTH = { open: 220, folded: 64 } as const;
/** Below this viewport width the navigation starts folded (1280×720 and 1366×768 screens). */
const FOLD_BELOW_PX = 1440;
const NAV_FOLDED_KEY = 'atende:nav-folded';

/**
 * Whether the left navigation is folded to its icons, and a toggle. The user's choice is kept in the
 * browser; until they make one, it is folded on screens narrower than 1440 px, so the chat column keeps
 * its room at 1280 and 1366 px.
 */
export function useNavFolded(): [boolean, () => void] {
  const narrow = useMediaQuery(`(max-width: ${FOLD_BELOW_PX - 1}px)`, typeof window !== 'undefined' && window.innerWidth < FOLD_BELOW_PX, {
    getInitialValueInEffect: false,
  });
  const [choice, setChoice] = useLocalStorage<'folded' | 'open' | null>({
    key: NAV_FOLDED_KEY,
    defaultValue: null,
    getInitialValueInEffect: false,
  });
  const folded = choice === null ? narrow : choice === 'folded';
  return [folded, () => setChoice(folded ? 'open' : 'folded')];
}

/** The header's button that folds and unfolds the navigation. */
export function NavToggle({ folded, onToggle }: { folded: boolean; onToggle(): void }) {
  const { t } = useTranslation();
  const label = folded ? t('Expand the menu') : t('Collapse the menu');
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} aria-expanded={!folded} onClick={onToggle}>
        {folded ? <IconLayoutSidebarLeftExpand size={20} stroke={1.6} /> : <IconLayoutSidebarLeftCollapse size={20} stroke={1.6} />}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * Left navigation bar shared by /app and /admin: an icon and its label per entry; folded, the icons
 * only, each named by its label (tooltip and accessible name) and the badge left to the icon's dot.
 */
export function NavBar({ items, label, folded = false }: { items: NavItem[]; label: string; folded?: boolean }) {
  return (
    <Stack component="nav" aria-label={label} gap={2} p="xs">
      {items.map((item) =>
        folded ? (
          <Tooltip key={item.to} label={item.label} position="right">
            <NavLink
              component={RouterLink}
              to={item.to}
              end={item.end}
              aria-label={item.label}
              leftSection={item.icon}
              styles={{ section: { marginInlineEnd: 0 } }}
            />
          </Tooltip>
        ) : (
          <NavLink
            key={item.to}
            component={RouterLink}
            to={item.to}
            end={item.end}
            label={item.label}
            leftSection={item.icon}
            rightSection={item.badge}
          />
        ),
      )}
    </Stack>
  );
}
