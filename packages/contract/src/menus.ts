import { z } from 'zod';
import { IsoDate, Uuid } from './common';
import { route } from './route';

const MenuActionSchema = z.object({
  type: z.union([z.enum(['transfer_to_sector', 'end_conversation', 'go_to_menu']), z.literal('')]),
  sector_uuid: Uuid.nullable().optional(),
  menu_uuid: Uuid.nullable().optional(),
  /** Sent to the contact when the action runs (optional). */
  message: z.string().max(5000).nullable().optional(),
});
export const MenuAnswerSchema = z.object({ key: z.string().max(200), label: z.string().max(1000), action: MenuActionSchema });
export type MenuAnswer = z.infer<typeof MenuAnswerSchema>;

/** Automated menu: its message, answers (each with an action) and the channels it greets. */
export const AutomatedMenuSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  message: z.string(),
  invalid_option_message: z.string(),
  answers: z.array(MenuAnswerSchema),
  enabled: z.boolean(),
  /** Channels whose entry point is this menu (a bound menu cannot be disabled). */
  channels: z.array(z.object({ uuid: Uuid, name: z.string() })),
  created_at: IsoDate,
});
export type AutomatedMenu = z.infer<typeof AutomatedMenuSchema>;

const menuFields = {
  name: z.string().max(1000),
  message: z.string().max(10000),
  invalid_option_message: z.string().max(5000),
  answers: z.array(MenuAnswerSchema).max(100),
  enabled: z.boolean(),
};
export const AutomatedMenuBody = z.object({ ...menuFields, enabled: menuFields.enabled.default(true) });
const MenuParam = z.object({ id: Uuid });

export const listAutomatedMenus = route({
  method: 'GET',
  path: '/api/v1/automated-menus',
  tags: ['automated menus'],
  summary: 'Automated menus of the workspace.',
  response: z.object({ data: z.array(AutomatedMenuSchema) }),
});
export const createAutomatedMenu = route({
  method: 'POST',
  path: '/api/v1/automated-menus',
  tags: ['automated menus'],
  summary: 'Creates an automated menu (admin).',
  status: 201,
  body: AutomatedMenuBody,
  response: z.object({ data: AutomatedMenuSchema }),
  errors: ['sector_unknown', 'menu_unknown'],
});
export const updateAutomatedMenu = route({
  method: 'PATCH',
  path: '/api/v1/automated-menus/:id',
  tags: ['automated menus'],
  summary: 'Edits an automated menu (admin); one bound to a channel cannot be disabled. Contacts in it continue with the new answers.',
  params: MenuParam,
  body: z.object(menuFields).partial(),
  response: z.object({ data: AutomatedMenuSchema }),
  errors: ['menu_not_found', 'menu_in_use_disable', 'sector_unknown', 'menu_unknown'],
});
export const deleteAutomatedMenu = route({
  method: 'DELETE',
  path: '/api/v1/automated-menus/:id',
  tags: ['automated menus'],
  summary: 'Deletes an automated menu no channel or menu points to (admin).',
  params: MenuParam,
  response: z.object({ data: z.object({ uuid: Uuid }) }),
  errors: ['menu_not_found', 'menu_in_use_delete', 'menu_referenced'],
});
