import { useTenant } from '../../session/session';
import { EmptyState } from '../../ui/states';
import { useTranslation } from 'react-i18next';

/** An embedded external page at the tenant's configured url (spec 000 §2). */
export function ExternalSystemPage() {
  const { t } = useTranslation();
  const url = useTenant().data?.config.flags.external_system_url;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return <EmptyState text={t('No data found')} />;
  return <iframe title={t('External system')} src={url} style={{ border: 0, width: '100%', height: 'calc(100vh - 100px)' }} sandbox="allow-scripts allow-forms allow-same-origin allow-popups" />;
}
