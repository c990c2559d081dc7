import {
  OpeningHoursInputSchema,
  WEEKDAYS,
  type OpeningHours,
  type OpeningHoursInput,
  type TimeRange,
  type Weekday,
} from '@atende/contract';
import { allows } from '@atende/core';
import { ActionIcon, Anchor, Button, Checkbox, Group, Paper, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import { useMe } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { formMessageText } from '../../api/errors';

const openingHoursKey = ['workspace', 'me', 'opening-hours'] as const;
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  monday: phrase('Monday'),
  tuesday: phrase('Tuesday'),
  wednesday: phrase('Wednesday'),
  thursday: phrase('Thursday'),
  friday: phrase('Friday'),
  saturday: phrase('Saturday'),
  sunday: phrase('Sunday'),
};
const NEW_RANGE: TimeRange = { start: '08:00', end: '18:00' };

/** Opening hours settings: GET/PUT /api/v1/workspaces/me/opening_hours. */
export function OpeningHoursPage() {
  const { t } = useTranslation();
  const hours = useQuery({ queryKey: openingHoursKey, queryFn: async () => (await api.getOpeningHours()).data });
  return (
    <Stack maw={760}>
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← {t('Settings')}
      </Anchor>
      <Title order={3}>{t('Opening hours')}</Title>
      {hours.isPending ? (
        <LoadingState />
      ) : hours.isError ? (
        <ErrorState onRetry={() => void hours.refetch()} />
      ) : (
        <OpeningHoursForm initial={hours.data} />
      )}
    </Stack>
  );
}

type DayState = Record<Weekday, { on: boolean; ranges: TimeRange[] }>;
type Errors = { days?: string; message?: string; timezone?: string; byDay: Partial<Record<Weekday, string>> };

function OpeningHoursForm({ initial }: { initial: OpeningHours }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe().data;
  const canSave = me
    ? allows(
        me.roles.map((r) => r.name),
        'settings.opening_hours.write',
      )
    : false;
  const [enabled, setEnabled] = useState(initial.enabled);
  const [timezone, setTimezone] = useState(initial.timezone);
  const [message, setMessage] = useState(initial.out_of_hours_message);
  const [days, setDays] = useState<DayState>(
    () =>
      Object.fromEntries(
        WEEKDAYS.map((w) => {
          const day = initial.days.find((d) => d.weekday === w);
          return [w, { on: Boolean(day), ranges: day?.ranges ?? [NEW_RANGE] }];
        }),
      ) as DayState,
  );
  const [errors, setErrors] = useState<Errors>({ byDay: {} });
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);

  const save = useMutation({
    mutationFn: async (body: OpeningHoursInput) => (await api.updateOpeningHours({ body })).data,
    onSuccess: (saved) => {
      queryClient.setQueryData(openingHoursKey, saved);
      toastSuccess(t('Opening hours saved'));
    },
  });

  const setDay = (weekday: Weekday, change: (d: DayState[Weekday]) => DayState[Weekday]) =>
    setDays((all) => ({ ...all, [weekday]: change(all[weekday]) }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const selected = WEEKDAYS.filter((w) => days[w].on);
    const body = {
      enabled,
      timezone,
      days: selected.map((weekday) => ({ weekday, ranges: days[weekday].ranges })),
      out_of_hours_message: message,
    };
    // The contract's own rules (at least one weekday; message required), as the api checks them.
    const parsed = OpeningHoursInputSchema.safeParse(body);
    if (!parsed.success) {
      const next: Errors = { byDay: {} };
      for (const issue of parsed.error.issues) {
        const [field, index] = issue.path;
        if (field === 'days' && typeof index === 'number') next.byDay[selected[index]!] ??= issue.message;
        else if (field === 'days') next.days ??= issue.message;
        else if (field === 'out_of_hours_message') next.message ??= issue.message;
        else if (field === 'timezone') next.timezone ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({ byDay: {} });
    save.mutate(parsed.data);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('Opening hours')}>
      <Stack>
        <Switch
          label={t('Send the out-of-hours message')}
          description={t('Outside these hours a contact gets the message once per conversation; the conversation still enters the queue.')}
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
        />
        <Select
          label={t('Time zone')}
          data={zones}
          value={timezone}
          onChange={(v) => v && setTimezone(v)}
          searchable
          allowDeselect={false}
          error={errors.timezone && formMessageText(errors.timezone, t)}
          w={320}
        />
        <Paper withBorder p="md">
          <Stack gap="sm" role="group" aria-label={t('Weekdays')}>
            <Text fw={600} size="sm">
              {t('Weekdays')}
            </Text>
            {WEEKDAYS.map((weekday) => {
              const day = days[weekday];
              const label = t(WEEKDAY_LABELS[weekday]);
              return (
                <Group key={weekday} align="flex-start" wrap="nowrap">
                  <Checkbox
                    w={140}
                    mt={6}
                    label={label}
                    checked={day.on}
                    onChange={(e) => setDay(weekday, (d) => ({ ...d, on: e.currentTarget.checked }))}
                  />
                  {day.on && (
                    <Stack gap={4}>
                      {day.ranges.map((range, i) => (
                        <Group key={i} gap="xs" wrap="nowrap">
                          <TextInput
                            type="time"
                            size="xs"
                            aria-label={t('{{day}} start {{n}}', { day: label, n: i + 1 })}
                            value={range.start}
                            onChange={(e) => {
                              const start = e.currentTarget.value;
                              setDay(weekday, (d) => ({ ...d, ranges: d.ranges.map((r, j) => (j === i ? { ...r, start } : r)) }));
                            }}
                          />
                          <Text size="xs">–</Text>
                          <TextInput
                            type="time"
                            size="xs"
                            aria-label={t('{{day}} end {{n}}', { day: label, n: i + 1 })}
                            value={range.end}
                            onChange={(e) => {
                              const end = e.currentTarget.value;
                              setDay(weekday, (d) => ({ ...d, ranges: d.ranges.map((r, j) => (j === i ? { ...r, end } : r)) }));
                            }}
                          />
                          {day.ranges.length > 1 && (
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={t('Remove time range')}
                              onClick={() => setDay(weekday, (d) => ({ ...d, ranges: d.ranges.filter((_, j) => j !== i) }))}
                            >
                              <IconTrash size={14} />
                            </ActionIcon>
                          )}
                        </Group>
                      ))}
                      <Group gap="xs">
                        <Button
                          variant="subtle"
                          size="compact-xs"
                          leftSection={<IconPlus size={12} />}
                          onClick={() => setDay(weekday, (d) => ({ ...d, ranges: [...d.ranges, { start: '13:00', end: '18:00' }] }))}
                        >
                          {t('Add time range')}
                        </Button>
                      </Group>
                      {errors.byDay[weekday] && (
                        <Text size="xs" c="red">
                          {formMessageText(errors.byDay[weekday], t)}
                        </Text>
                      )}
                    </Stack>
                  )}
                </Group>
              );
            })}
            {errors.days && (
              <Text size="sm" c="red" role="alert">
                {formMessageText(errors.days, t)}
              </Text>
            )}
          </Stack>
        </Paper>
        <Textarea
          label={t('Out-of-hours message')}
          withAsterisk
          autosize
          minRows={3}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          error={errors.message && formMessageText(errors.message, t)}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!canSave}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
