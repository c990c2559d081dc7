import type { Conversation } from '@atende/contract';
import { Avatar, Badge, Group, SegmentedControl, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconPinFilled } from '@tabler/icons-react';
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { contactLabel, initials } from '../layout/initials';
import { isSelectable } from './conversationEvents';
import { listPreview, listTimestamp } from './timeline';
import { badgeCount, fitsCircle } from '../../ui/badgeCount';

interface Props {
  conversations: Conversation[];
  activeUuid: string | null;
  pinned: readonly string[];
  onSelect(uuid: string): void;
  showArchivedFilter: boolean;
  archivedView: boolean;
  onArchivedViewChange(archived: boolean): void;
}

const optionId = (uuid: string) => `conversation-${uuid}`;

/**
 * The agent's conversations: a listbox moved through with arrows, Home and End
 * (selection follows focus); closing conversations are shown but skipped; pinned ones first.
 */
export function ConversationList({
  conversations,
  activeUuid,
  pinned,
  onSelect,
  showArchivedFilter,
  archivedView,
  onArchivedViewChange,
}: Props) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLDivElement>(null);
  const selectable = conversations.filter(isSelectable);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (selectable.length === 0) return;
    const at = selectable.findIndex((c) => c.uuid === activeUuid);
    let next: number | null = null;
    if (e.key === 'ArrowDown') next = at < 0 ? 0 : Math.min(at + 1, selectable.length - 1);
    else if (e.key === 'ArrowUp') next = at < 0 ? selectable.length - 1 : Math.max(at - 1, 0);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = selectable.length - 1;
    if (next === null) return;
    e.preventDefault();
    const target = selectable[next]!;
    onSelect(target.uuid);
    document.getElementById(optionId(target.uuid))?.scrollIntoView({ block: 'nearest' });
  };

  return (
    <Stack gap={6} style={{ minHeight: 0, flex: 1 }}>
      {showArchivedFilter && (
        <SegmentedControl
          size="xs"
          fullWidth
          value={archivedView ? 'archived' : 'active'}
          onChange={(v) => onArchivedViewChange(v === 'archived')}
          data={[
            { value: 'active', label: t('Active') },
            { value: 'archived', label: t('Archived') },
          ]}
          aria-label={t('Show archived conversations')}
        />
      )}
      <div
        ref={listRef}
        role="listbox"
        aria-label={t('Conversations')}
        tabIndex={0}
        aria-activedescendant={activeUuid && conversations.some((c) => c.uuid === activeUuid) ? optionId(activeUuid) : undefined}
        onKeyDown={onKeyDown}
        style={{ overflowY: 'auto', flex: 1, minHeight: 0, outlineOffset: -2 }}
      >
        {conversations.length === 0 && (
          <Text size="sm" c="dimmed" ta="center" py="md">
            {archivedView ? t('No archived conversations') : t('No active chats')}
          </Text>
        )}
        {conversations.map((c) => (
          <ConversationRow
            key={c.uuid}
            conversation={c}
            active={c.uuid === activeUuid}
            pinned={pinned.includes(c.uuid)}
            onSelect={onSelect}
          />
        ))}
      </div>
    </Stack>
  );
}

function ConversationRow({
  conversation: c,
  active,
  pinned,
  onSelect,
}: {
  conversation: Conversation;
  active: boolean;
  pinned: boolean;
  onSelect(uuid: string): void;
}) {
  const { t } = useTranslation();
  const disabled = !isSelectable(c);
  const when = listTimestamp(c.last_message?.when ?? c.time_answer ?? c.time_join);
  const last = listPreview(c.last_message);
  const preview = t(last.key, last.values);
  return (
    <UnstyledButton
      id={optionId(c.uuid)}
      role="option"
      aria-selected={active}
      aria-disabled={disabled || undefined}
      tabIndex={-1}
      onClick={() => !disabled && onSelect(c.uuid)}
      data-state={c.state}
      w="100%"
      px="sm"
      py={8}
      style={{
        display: 'block',
        borderRadius: 6,
        opacity: disabled ? 0.55 : 1,
        cursor: disabled ? 'not-allowed' : 'pointer',
        background: active ? 'var(--mantine-color-blue-light)' : undefined,
      }}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <Avatar size={32} radius="xl" color="blue" src={c.contact.profile_image ?? undefined} alt="">
          {initials(c.contact.name)}
        </Avatar>
        <div style={{ flex: 1, minWidth: 0 }}>
          <Group gap={4} justify="space-between" wrap="nowrap">
            <Text size="sm" fw={c.unread_contact_messages > 0 ? 700 : 500} truncate>
              {contactLabel(c.contact)}
            </Text>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {t(when.key, when.values)}
            </Text>
          </Group>
          <Group gap={4} justify="space-between" wrap="nowrap">
            <Text size="xs" c="dimmed" truncate>
              {c.state === 'closing' ? t('Closing...') : preview}
            </Text>
            <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
              {pinned && <IconPinFilled size={12} aria-label={t('Pinned')} />}
              {c.state === 'outbound-started' && (
                <Badge size="xs" variant="outline">
                  {t('Outbound')}
                </Badge>
              )}
              {c.unread_contact_messages > 0 && (
                <Badge
                  size="xs"
                  color="red"
                  circle={fitsCircle(c.unread_contact_messages)}
                  aria-label={t('{{count}} unread messages', { count: c.unread_contact_messages })}
                >
                  {badgeCount(c.unread_contact_messages)}
                </Badge>
              )}
            </Group>
          </Group>
        </div>
      </Group>
    </UnstyledButton>
  );
}
