import { z } from 'zod';
import { IsoDate, Uuid } from './common';
import { route } from './route';
import { fieldMessage } from './field-messages';

/** When an automation looks at a conversation ("Action with conditions and operations"). */
export const AUTOMATION_TRIGGERS = ['contact_inactive', 'waiting_too_long'] as const;
export const AUTOMATION_CONDITION_FIELDS = ['sector', 'channel'] as const;
export const AUTOMATION_OPERATORS = ['equals', 'not_equals'] as const;
export const AUTOMATION_OPERATIONS = ['send_message', 'transfer_to_sector', 'return_to_queue', 'close'] as const;
/** Longest timer an automation may wait (30 days), in minutes. */
export const AUTOMATION_MAX_MINUTES = 43_200;

export const AutomationConditionSchema = z.object({
  uuid: Uuid,
  field: z.enum(AUTOMATION_CONDITION_FIELDS),
  operator: z.enum(AUTOMATION_OPERATORS),
  value: z.string(),
});
export const AutomationOperationSchema = z.object({
  uuid: Uuid,
  type: z.enum(AUTOMATION_OPERATIONS),
  value: z.string().nullable(),
  position: z.number().int(),
});
export const AutomationSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  trigger: z.enum(AUTOMATION_TRIGGERS),
  minutes: z.number().int(),
  enabled: z.boolean(),
  conditions: z.array(AutomationConditionSchema),
  operations: z.array(AutomationOperationSchema),
  created_at: IsoDate,
});
export type Automation = z.infer<typeof AutomationSchema>;

const fields = {
  name: z
    .string()
    .trim()
    .min(1, fieldMessage('name_required'))
    .max(120, fieldMessage('field_too_long', { max: 120 })),
  trigger: z.enum(AUTOMATION_TRIGGERS, { message: fieldMessage('automation_trigger_required') }),
  minutes: z
    .number({ message: fieldMessage('minutes_required') })
    .int(fieldMessage('minutes_whole'))
    .min(1, fieldMessage('minutes_too_few'))
    .max(AUTOMATION_MAX_MINUTES, fieldMessage('minutes_too_many')),
  enabled: z.boolean(),
};
const ActionParam = z.object({ id: Uuid });
const one = z.object({ data: AutomationSchema });

export const listAutomations = route({
  method: 'GET',
  path: '/api/v1/actions',
  tags: ['automations'],
  summary: 'Automations of the workspace with their conditions and operations.',
  response: z.object({ data: z.array(AutomationSchema) }),
});
export const getAutomation = route({
  method: 'GET',
  path: '/api/v1/actions/:id',
  tags: ['automations'],
  summary: 'One automation.',
  params: ActionParam,
  response: one,
  errors: ['automation_not_found'],
});
export const createAutomation = route({
  method: 'POST',
  path: '/api/v1/actions',
  tags: ['automations'],
  summary: 'Creates an automation (admin); it acts once it has an operation.',
  status: 201,
  body: z.object({ ...fields, enabled: fields.enabled.default(true) }),
  response: one,
});
export const updateAutomation = route({
  method: 'PATCH',
  path: '/api/v1/actions/:id',
  tags: ['automations'],
  summary: 'Edits an automation (admin).',
  params: ActionParam,
  body: z.object(fields).partial(),
  response: one,
  errors: ['automation_not_found'],
});
export const deleteAutomation = route({
  method: 'DELETE',
  path: '/api/v1/actions/:id',
  tags: ['automations'],
  summary: 'Deletes an automation (admin).',
  params: ActionParam,
  response: z.object({ data: z.object({ uuid: Uuid }) }),
  errors: ['automation_not_found'],
});
export const listAutomationConditions = route({
  method: 'GET',
  path: '/api/v1/actions/:id/conditions',
  tags: ['automations'],
  summary: "An automation's conditions (all must hold).",
  params: ActionParam,
  response: z.object({ data: z.array(AutomationConditionSchema) }),
  errors: ['automation_not_found'],
});
export const addAutomationCondition = route({
  method: 'POST',
  path: '/api/v1/actions/:id/conditions',
  tags: ['automations'],
  summary: 'Adds a condition (admin).',
  status: 201,
  params: ActionParam,
  body: z.object({
    field: z.enum(AUTOMATION_CONDITION_FIELDS, { message: fieldMessage('automation_field_required') }),
    operator: z.enum(AUTOMATION_OPERATORS, { message: fieldMessage('automation_operator_required') }),
    value: Uuid,
  }),
  response: one,
  errors: ['automation_not_found', 'sector_unknown', 'channel_unknown'],
});
export const removeAutomationCondition = route({
  method: 'DELETE',
  path: '/api/v1/actions/:id/conditions/:item',
  tags: ['automations'],
  summary: 'Removes a condition (admin).',
  params: z.object({ id: Uuid, item: Uuid }),
  response: one,
  errors: ['automation_not_found', 'automation_condition_not_found'],
});
export const listAutomationOperations = route({
  method: 'GET',
  path: '/api/v1/actions/:id/operations',
  tags: ['automations'],
  summary: "An automation's operations, in order.",
  params: ActionParam,
  response: z.object({ data: z.array(AutomationOperationSchema) }),
  errors: ['automation_not_found'],
});
export const addAutomationOperation = route({
  method: 'POST',
  path: '/api/v1/actions/:id/operations',
  tags: ['automations'],
  summary: 'Appends an operation (admin).',
  status: 201,
  params: ActionParam,
  body: z.object({
    type: z.enum(AUTOMATION_OPERATIONS, { message: fieldMessage('automation_operation_required') }),
    value: z
      .string()
      .trim()
      .max(2000, fieldMessage('field_too_long', { max: 2000 }))
      .nullable()
      .optional(),
  }),
  response: one,
  errors: ['automation_not_found', 'automation_message_required', 'sector_unknown', 'automation_close_last'],
});
export const removeAutomationOperation = route({
  method: 'DELETE',
  path: '/api/v1/actions/:id/operations/:item',
  tags: ['automations'],
  summary: 'Removes an operation (admin).',
  params: z.object({ id: Uuid, item: Uuid }),
  response: one,
  errors: ['automation_not_found', 'automation_operation_not_found'],
});
