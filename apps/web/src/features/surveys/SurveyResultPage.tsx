import { Anchor, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client';
import { ErrorState, LoadingState } from '../../ui/states';
import { surveyKeys } from './SurveysPage';

/** Settings > Surveys > one survey (surveys/:id): its question and how contacts answered. */
export function SurveyResultPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const result = useQuery({ queryKey: surveyKeys.one(id), queryFn: async () => (await api.getSurvey({ params: { id }, query: {} })).data });
  if (result.isPending) return <LoadingState />;
  if (result.isError) return <ErrorState onRetry={() => void result.refetch()} />;
  const { survey, sent, answered, pending, answers } = result.data;
  const pct = (n: number) => (answered === 0 ? 0 : Math.round((n / answered) * 100));
  return (
    <Stack maw={720}>
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← {t('Surveys')}
      </Anchor>
      <Title order={3}>{survey.name}</Title>
      <Text style={{ whiteSpace: 'pre-wrap' }}>{survey.question}</Text>
      <SimpleGrid cols={3}>
        {[
          { label: t('Sent'), value: sent },
          { label: t('Answered'), value: answered },
          { label: t('Waiting for an answer'), value: pending },
        ].map((f) => (
          <Paper key={f.label} withBorder p="sm">
            <Text size="xs" c="dimmed">
              {f.label}
            </Text>
            <Text fw={700} fz="xl">
              {f.value}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Stack gap="sm" aria-label={t('Answers')}>
        {answers.map((a, i) => (
          <div key={i} data-testid={`survey-answer-${i + 1}`}>
            <Group justify="space-between">
              <Text size="sm">
                {i + 1}. {a.option}
              </Text>
              <Text size="sm" fw={600}>
                {a.count} ({pct(a.count)}%)
              </Text>
            </Group>
            <Progress value={pct(a.count)} aria-label={a.option} />
          </div>
        ))}
      </Stack>
    </Stack>
  );
}
