import { Anchor, Avatar, Group, Image, Text } from '@mantine/core';
import type { LivechatMessage } from '@atende/contract';

export interface WidgetLook {
  title: string;
  primaryColor: string;
  textColor: string;
  logoUrl: string | null;
  avatarUrl: string | null;
}

/** The widget's header (header title and logo, avatar, theme colours): the widget and the admin preview show the same one. */
export function WidgetHeader({ look }: { look: WidgetLook }) {
  return (
    <Group gap="sm" p="sm" wrap="nowrap" style={{ background: look.primaryColor, color: look.textColor }} data-testid="livechat-header">
      {look.logoUrl && <Image src={look.logoUrl} alt="" h={28} w="auto" fit="contain" />}
      <Text fw={600} c={look.textColor} style={{ flex: 1 }} truncate>
        {look.title}
      </Text>
      {look.avatarUrl && <Avatar src={look.avatarUrl} size={32} radius="xl" />}
    </Group>
  );
}

/** One message bubble: the visitor's on the right in the theme colour, the agents' on the left. */
export function WidgetBubble({
  mine,
  look,
  children,
  author,
  annex = null,
}: {
  mine: boolean;
  look: WidgetLook;
  children: string;
  author?: string | null;
  annex?: LivechatMessage['annex'];
}) {
  return (
    <Group justify={mine ? 'flex-end' : 'flex-start'} align="flex-end" gap={6} wrap="nowrap">
      {!mine && look.avatarUrl && <Avatar src={look.avatarUrl} size={24} radius="xl" />}
      <div
        style={{
          maxWidth: '80%',
          padding: '6px 10px',
          borderRadius: 12,
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          background: mine ? look.primaryColor : '#ffffff',
          color: mine ? look.textColor : '#212529',
          boxShadow: '0 1px 2px rgba(0,0,0,.12)',
        }}
      >
        {author && !mine && (
          <Text size="xs" fw={600} c="dimmed">
            {author}
          </Text>
        )}
        {annex && <Attachment annex={annex} />}
        {children && (
          <Text size="sm" c="inherit">
            {children}
          </Text>
        )}
      </div>
    </Group>
  );
}

/** An agent's file in the widget: images and voice notes play inline, other files are a link. */
function Attachment({ annex }: { annex: NonNullable<LivechatMessage['annex']> }) {
  if (annex.content_type.startsWith('image/')) return <Image src={annex.url} alt={annex.filename} maw={220} radius="sm" />;
  if (annex.content_type.startsWith('audio/'))
    return <audio controls src={annex.url} aria-label={annex.filename} style={{ maxWidth: 220 }} />;
  return (
    <Anchor href={annex.url} target="_blank" rel="noreferrer" size="sm" c="inherit" underline="always">
      {annex.filename}
    </Anchor>
  );
}
