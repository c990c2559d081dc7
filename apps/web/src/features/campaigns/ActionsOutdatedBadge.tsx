import type { Campaign } from '@atende/contract';
import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The campaign's template changed its buttons since the reply actions were saved;
 * a reply to a renamed button would get the default action, so the campaign cannot start until
 * its button actions are saved again (Edit).
 */
export function ActionsOutdatedBadge({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation();
  if (!campaign.actions_outdated) return null;
  return (
    <Tooltip
      label={t("The template's buttons changed: edit the campaign and save its button actions again before starting it.")}
      multiline
      w={280}
    >
      <Badge color="orange" variant="light" size="sm">
        {t('Button actions outdated')}
      </Badge>
    </Tooltip>
  );
}
