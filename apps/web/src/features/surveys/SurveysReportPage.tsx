import { reportFilterIssues } from '@atende/core';
import { Anchor, Group, Paper, Progress, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { ListStates } from '../../ui/states';
import { useIssueText } from '../../ui/useRuleForm';

const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** Reports > Surveys (flag surveys_report): for each survey, how many were sent and how contacts answered in the period (spec 001 §5 date rules). */
export function SurveysReportPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const today = iso(new Date());
  const start = params.get('start') ?? iso(new Date(Date.now() - 6 * 86_400_000));
  const end = params.get('end') ?? today;
  const issues = reportFilterIssues({ start, end }, today);
  const errorOf = useIssueText(issues);
  const set = (key: 'start' | 'end', value: string) => setParams(new URLSearchParams({ start, end, [key]: value }), { replace: true });
  const surveys = useQuery({ queryKey: ['surveys'], queryFn: async () => (await api.listSurveys({})).data });
  // The period as instants: from the start of the first day to the end of the last, in the viewer's zone.
  const from = new Date(`${start}T00:00:00`).toISOString();
  const to = new Date(new Date(`${end}T00:00:00`).getTime() + 86_400_000).toISOString();
  const results = useQueries({
    queries: (issues.length ? [] : (surveys.data ?? [])).map((s) => ({
      queryKey: ['surveys', s.uuid, from, to],
      queryFn: async () => (await api.getSurvey({ params: { id: s.uuid }, query: { start: from, end: to } })).data,
    })),
  });
  return (
    <Stack>
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← {t('Reports')}
      </Anchor>
      <Title order={3}>{t('Surveys')}</Title>
      <Group align="flex-start">
        <TextInput type="date" label={t('Start date')} value={start} max={today} onChange={(e) => set('start', e.currentTarget.value)} error={errorOf('start')} />
        <TextInput type="date" label={t('End date')} value={end} max={today} onChange={(e) => set('end', e.currentTarget.value)} error={errorOf('end')} />
      </Group>
      <ListStates query={surveys} empty={t('No surveys yet')}>
        {() => (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {results.map((r, i) =>
              r.data ? (
                <Paper key={r.data.survey.uuid} withBorder p="md" aria-label={r.data.survey.name} data-testid={`survey-report-${r.data.survey.uuid}`}>
                  <Text fw={700}>{r.data.survey.name}</Text>
                  <Text size="sm" c="dimmed" mb="xs">
                    {t('Sent')}: {r.data.sent} · {t('Answered')}: {r.data.answered} · {t('Waiting for an answer')}: {r.data.pending}
                  </Text>
                  {r.data.answers.map((a, j) => {
                    const pct = r.data.answered === 0 ? 0 : Math.round((a.count / r.data.answered) * 100);
                    return (
                      <Stack key={j} gap={2} mb={6}>
                        <Group justify="space-between">
                          <Text size="sm">{a.option}</Text>
                          <Text size="sm" fw={600}>
                            {a.count} ({pct}%)
                          </Text>
                        </Group>
                        <Progress value={pct} aria-label={a.option} />
                      </Stack>
                    );
                  })}
                </Paper>
              ) : (
                <Paper key={i} withBorder p="md" h={120} />
              ),
            )}
          </SimpleGrid>
        )}
      </ListStates>
    </Stack>
  );
}
