import { useTranslation } from 'react-i18next';
import { useTenant } from '../../session/session';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { externalSystem } from './externalSystem';

/** The tenant's external system in a frame, at its configured url. */
export function ExternalSystemPage() {
  const { t } = useTranslation();
  const tenant = useTenant();
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  if (!tenant.data) return <LoadingState />;
  const external = externalSystem(tenant.data.config.flags);
  if (!external || !/^https?:\/\//i.test(external.url)) return <EmptyState text={t('No data found')} />;
  return (
    <iframe
      title={external.label ?? t('External system')}
      src={external.url}
      style={{ border: 0, width: '100%', height: 'calc(100vh - 100px)' }}
      sandbox="allow-scripts allow-forms allow-same-origin allow-popups"
    />
  );
}
