import type { MetaSetupKind } from '@atende/contract';
import { ApiError } from '@atende/sdk';
import { Alert, Anchor, Button, Container, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { IconBrandFacebook, IconBrandInstagram } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { apiHandling } from '../../api/client';
import { errorText } from '../../api/errors';
import { phrase } from '../../i18n/phrase';
import { ErrorState, LoadingState } from '../../ui/states';
import { EntryPointSelect } from '../menus/EntryPointSelect';
import { entryPointOf } from '../menus/useEntryPointOptions';
import { channelKeys } from './ChannelsSection';

/** Refusals this screen words itself (bad state, Meta's refusal, no pages, a page taken, Meta away). */
const answered = apiHandling(400, 409, 422, 502);
const CHANNELS = '/admin/settings/workspace';

const TEXTS = {
  messenger: {
    title: phrase('Connect a Facebook page'),
    intro: phrase('Log in with Facebook and choose the page whose Messenger conversations Atende answers.'),
    choose: phrase('Choose the page'),
  },
  instagram: {
    title: phrase('Connect an Instagram account'),
    intro: phrase('Log in with Facebook and choose the page your Instagram professional account is linked to.'),
    choose: phrase('Choose the Instagram account'),
  },
} as const;

export const MessengerSetupPage = () => <MetaSetupPage kind="messenger" />;
export const InstagramSetupPage = () => <MetaSetupPage kind="instagram" />;

/**
 * The /messenger-setup and /instagram-setup screens: "Connect with Facebook" opens
 * Meta's login dialog, which sends the browser back here with a code and our state; the server
 * exchanges the code and lists the pages (their tokens stay on the server); the admin picks one and
 * an entry point, and Connect makes (or updates) the channel.
 */
function MetaSetupPage({ kind }: { kind: MetaSetupKind }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const code = params.get('code');
  const state = params.get('state');
  const texts = TEXTS[kind];
  const Icon = kind === 'instagram' ? IconBrandInstagram : IconBrandFacebook;
  const start = useMutation({
    mutationFn: () => answered.startMetaSetup({ body: { kind } }),
    onSuccess: (res) => window.location.assign(res.data.dialog_url),
  });
  const connectButton = (label: string) => (
    <Group>
      <Button leftSection={<Icon size={18} />} loading={start.isPending || start.isSuccess} onClick={() => start.mutate()}>
        {t(label)}
      </Button>
    </Group>
  );
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Anchor component={Link} to={CHANNELS} size="sm">
          {t('Back to channels')}
        </Anchor>
        <Title order={2}>{t(texts.title)}</Title>
        {start.isError && (
          <Alert color="red">{start.error instanceof ApiError ? errorText(start.error, t) : t('Something went wrong')}</Alert>
        )}
        {params.get('error') ? (
          <>
            <Alert color="yellow">{t('The Facebook login was cancelled: nothing was connected.')}</Alert>
            {connectButton(phrase('Connect with Facebook'))}
          </>
        ) : code && state ? (
          <ChoosePage kind={kind} code={code} state={state} retry={connectButton(phrase('Log in again'))} />
        ) : (
          <>
            <Text>{t(texts.intro)}</Text>
            {connectButton(phrase('Connect with Facebook'))}
          </>
        )}
      </Stack>
    </Container>
  );
}

/** Back from Meta: the pages of the login, an entry point, Connect. */
function ChoosePage({ kind, code, state, retry }: { kind: MetaSetupKind; code: string; state: string; retry: React.ReactNode }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [pageId, setPageId] = useState<string | null>(null);
  const [entry, setEntry] = useState<string | null>(null);
  // The server keeps the login under the state: asking again (a reload) answers the same pages.
  const pages = useQuery({
    queryKey: ['meta-setup', state],
    queryFn: async () => (await answered.listMetaSetupPages({ body: { state, code } })).data,
    retry: false,
    staleTime: Infinity,
  });
  const connect = useMutation({
    mutationFn: () => {
      const { entry_point, entry_point_type } = entryPointOf(entry);
      return answered.connectMetaSetup({ body: { state, page_id: pageId!, ...(entry_point ? { entry_point, entry_point_type } : {}) } });
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  });
  if (pages.isPending) return <LoadingState />;
  if (pages.isError) {
    if (!(pages.error instanceof ApiError)) return <ErrorState onRetry={() => void pages.refetch()} />;
    return (
      <>
        <Alert color="red">{errorText(pages.error, t)}</Alert>
        {retry}
      </>
    );
  }
  const done = connect.data;
  if (done) {
    return (
      <Paper withBorder p="md">
        <Stack>
          <Alert color="green">
            {t(
              done.created
                ? phrase('The channel {{name}} is connected.')
                : phrase('The channel {{name}} was updated with the new connection.'),
              { name: done.data.name },
            )}
          </Alert>
          <Group>
            <Button component={Link} to={`${CHANNELS}/channels/${done.data.uuid}`}>
              {t('Open channel settings')}
            </Button>
            <Button component={Link} to={CHANNELS} variant="default">
              {t('Back to channels')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    );
  }
  return (
    <Paper withBorder p="md">
      <Stack>
        <Radio.Group label={t(TEXTS[kind].choose)} value={pageId} onChange={setPageId}>
          <Stack gap="xs" mt="xs">
            {pages.data.pages.map((page) => (
              <Radio
                key={page.id}
                value={page.id}
                label={kind === 'instagram' && page.instagram_username ? `@${page.instagram_username} (${page.name})` : page.name}
                description={
                  page.channel
                    ? t('Connected to the channel {{name}}: connecting again updates it', { name: page.channel.name })
                    : kind === 'messenger' && page.instagram_username
                      ? `Instagram: @${page.instagram_username}`
                      : undefined
                }
              />
            ))}
          </Stack>
        </Radio.Group>
        <EntryPointSelect value={entry} onChange={setEntry} />
        {connect.isError && (
          <Alert color="red">{connect.error instanceof ApiError ? errorText(connect.error, t) : t('Something went wrong')}</Alert>
        )}
        <Group justify="flex-end">
          <Button disabled={!pageId} loading={connect.isPending} onClick={() => connect.mutate()}>
            {t('Connect')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
