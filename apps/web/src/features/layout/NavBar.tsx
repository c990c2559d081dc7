import { NavLink, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { NavLink as RouterLink } from 'react-router';

export interface NavItem {
  to: string;
  label: string;
  icon: ReactNode;
  badge?: ReactNode;
  end?: boolean;
}

/** Left navigation bar shared by /app and /admin: an icon and its label per entry. */
export function NavBar({ items, label }: { items: NavItem[]; label: string }) {
  return (
    <Stack component="nav" aria-label={label} gap={2} p="xs">
      {items.map((item) => (
        <NavLink key={item.to} component={RouterLink} to={item.to} end={item.end} label={item.label} leftSection={item.icon} rightSection={item.badge} />
      ))}
    </Stack>
  );
}
