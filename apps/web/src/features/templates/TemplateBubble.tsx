import type { TemplateComponent, TemplateHeader } from '@atende/contract';
import { renderTemplateText } from '@atende/core';
import { Box, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { IconFileText, IconLink, IconMapPin, IconMessageReply, IconMovie, IconPhone, IconPhoto } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const FORMAT_ICON = { IMAGE: IconPhoto, VIDEO: IconMovie, DOCUMENT: IconFileText, LOCATION: IconMapPin } as const;

function MediaHeader({ header }: { header: TemplateHeader }) {
  const { t } = useTranslation();
  const source = header.example?.header_handle?.[0];
  if (header.format === 'IMAGE' && source) return <Image src={source} alt={t('Header image')} radius="sm" mah={160} fit="cover" />;
  if (header.format === 'VIDEO' && source)
    return <video src={source} controls style={{ width: '100%', maxHeight: 160, borderRadius: 4 }} aria-label={t('Header video')} />;
  const Icon = FORMAT_ICON[header.format as keyof typeof FORMAT_ICON] ?? IconFileText;
  // No source yet (or a document / location): a placeholder naming the format.
  return (
    <Group
      justify="center"
      gap={6}
      p="md"
      bg="gray.1"
      style={{ borderRadius: 4 }}
      aria-label={t('{{format}} header', { format: header.format })}
    >
      <Icon size={22} />
      <Text size="sm" c="dimmed">
        {header.format}
        {header.format === 'DOCUMENT' && source ? ` · ${source.split('/').pop()}` : ''}
      </Text>
    </Group>
  );
}

/**
 * A template as the contact will see it (preview): optional header (text or media),
 * body with its {{n}} replaced by the examples given (empty ones stay as placeholders), footer and
 * buttons (phone, link, quick reply). Shared by the list's preview, the form and the campaign wizard.
 */
export function TemplateBubble({ components, parameters }: { components: readonly TemplateComponent[]; parameters?: readonly string[] }) {
  const { t } = useTranslation();
  const header = components.find((c): c is TemplateHeader => c.type === 'HEADER');
  const body = components.find((c) => c.type === 'BODY');
  const footer = components.find((c) => c.type === 'FOOTER');
  const buttons = components.find((c) => c.type === 'BUTTONS');
  const bodyParams = parameters ?? (body?.type === 'BODY' ? (body.example?.body_text?.[0] ?? []) : []);
  return (
    <Box maw={340} aria-label={t('Message preview')} role="figure">
      <Paper shadow="xs" p="sm" radius="md" bg="#dcf8c6">
        <Stack gap={6}>
          {header &&
            (header.format === 'TEXT' ? (
              <Text fw={700} size="sm">
                {renderTemplateText(header.text ?? '', header.example?.header_text ?? [])}
              </Text>
            ) : (
              <MediaHeader header={header} />
            ))}
          {body?.type === 'BODY' && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {renderTemplateText(body.text, bodyParams)}
            </Text>
          )}
          {footer?.type === 'FOOTER' && (
            <Text size="xs" c="dimmed">
              {footer.text}
            </Text>
          )}
        </Stack>
      </Paper>
      {buttons?.type === 'BUTTONS' && (
        <Stack gap={4} mt={4}>
          {buttons.buttons.map((b, i) => {
            const Icon = b.type === 'PHONE_NUMBER' ? IconPhone : b.type === 'URL' ? IconLink : IconMessageReply;
            return (
              <Paper key={i} shadow="xs" radius="md" p={6} ta="center" c="blue.7">
                <Group gap={6} justify="center" wrap="nowrap">
                  <Icon size={14} aria-hidden />
                  <Text size="sm" fw={500}>
                    {b.text}
                  </Text>
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
    </Box>
  );
}
