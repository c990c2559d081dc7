import { Outlet } from 'react-router';
import { RealtimeProvider } from '../../realtime/RealtimeProvider';
import { useMe } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';

/** Everything behind sign-in: the user is loaded first, then the realtime connection opens. */
export function Authenticated() {
  const me = useMe();
  if (me.isPending) return <LoadingState />;
  if (!me.data) return <ErrorState onRetry={() => void me.refetch()} />;
  return (
    <RealtimeProvider me={me.data}>
      <Outlet />
    </RealtimeProvider>
  );
}
