import { z } from 'zod';
import { Ok, PageQuery, dataOf, pageOf, Uuid, UuidParam } from './common';
import { FinishReasonSchema, PauseSchema } from './conversations';
import { CannedResponseSchema } from './messages';
import { route } from './route';
import { REQUIRED_MESSAGE, maxCharacters, requiredText } from './settings-rules';
import { fieldMessage } from './field-messages';

// Settings resources: pauses, conversation reasons, canned responses.
// their categories. The GET of pauses and reasons lives in conversations.ts (the workstation reads them).

// --- pauses ---
export const PauseBodySchema = z.object({ description: requiredText(120) });
export type PauseBody = z.infer<typeof PauseBodySchema>;
export const createPause = route({
  method: 'POST',
  path: '/api/v1/pauses',
  tags: ['pauses'],
  summary: 'Creates a pause reason.',
  body: PauseBodySchema,
  response: dataOf(PauseSchema),
  status: 201,
  errors: ['pause_description_taken'],
});
export const updatePause = route({
  method: 'PATCH',
  path: '/api/v1/pauses/:id',
  tags: ['pauses'],
  summary: 'Renames a pause reason.',
  params: UuidParam,
  body: PauseBodySchema,
  response: dataOf(PauseSchema),
  errors: ['pause_not_found', 'pause_description_taken'],
});
export const deletePause = route({
  method: 'DELETE',
  path: '/api/v1/pauses/:id',
  tags: ['pauses'],
  summary: 'Deletes a pause reason: it leaves the list; agents on it stay paused until they unpause.',
  params: UuidParam,
  response: Ok,
  errors: ['pause_not_found'],
});

// --- conversation reasons (admin) ---
export const ConversationReasonBodySchema = z.object({ name: requiredText(120) });
export type ConversationReasonBody = z.infer<typeof ConversationReasonBodySchema>;
export const createConversationReason = route({
  method: 'POST',
  path: '/api/v1/conversation/reasons',
  tags: ['conversation reasons'],
  summary: 'Creates a finish reason (admin).',
  body: ConversationReasonBodySchema,
  response: dataOf(FinishReasonSchema),
  status: 201,
  errors: ['conversation_reason_name_taken'],
});
export const updateConversationReason = route({
  method: 'PATCH',
  path: '/api/v1/conversation/reasons/:id',
  tags: ['conversation reasons'],
  summary: 'Renames a finish reason (admin).',
  params: UuidParam,
  body: ConversationReasonBodySchema,
  response: dataOf(FinishReasonSchema),
  errors: ['conversation_reason_not_found', 'conversation_reason_name_taken'],
});
export const deleteConversationReason = route({
  method: 'DELETE',
  path: '/api/v1/conversation/reasons/:id',
  tags: ['conversation reasons'],
  summary: 'Deletes a finish reason (admin); conversations finished with it keep it.',
  params: UuidParam,
  response: Ok,
  errors: ['conversation_reason_not_found'],
});

// --- canned responses and categories (flag canned_responses) ---
/** "no spaces or numbers". */
const NO_SPACES_OR_NUMBERS = /^[^\s\d]+$/u;
export const KEYWORD_NO_SPACES_OR_NUMBERS = fieldMessage('keyword_characters');
export const CATEGORY_NO_SPACES_OR_NUMBERS = fieldMessage('category_label_characters');
/** Requires a minimum keyword length without giving it; 2 keeps "/" plus one letter from being a whole keyword. */
export const KEYWORD_MIN_LENGTH = 2;
export const KEYWORD_TOO_SHORT = fieldMessage('keyword_too_short', { min: KEYWORD_MIN_LENGTH });

/** A canned response as the admin list and the composer read it. */
export type CannedResponse = z.infer<typeof CannedResponseSchema>;

export const CannedCategorySchema = z.object({ uuid: Uuid, name: z.string(), description: z.string().nullable() });
export type CannedCategory = z.infer<typeof CannedCategorySchema>;
/** The category's name is its label (no spaces or numbers); the description is free text. */
export const CannedCategoryBodySchema = z.object({
  name: requiredText(60).regex(NO_SPACES_OR_NUMBERS, CATEGORY_NO_SPACES_OR_NUMBERS),
  description: z.string().trim().max(300, maxCharacters(300)).nullable().optional(),
});
export type CannedCategoryBody = z.infer<typeof CannedCategoryBodySchema>;

export const CannedResponseBodySchema = z.object({
  keyword: z
    .string({ message: REQUIRED_MESSAGE })
    .trim()
    .min(1, REQUIRED_MESSAGE)
    .min(KEYWORD_MIN_LENGTH, KEYWORD_TOO_SHORT)
    .max(60, maxCharacters(60))
    .regex(NO_SPACES_OR_NUMBERS, KEYWORD_NO_SPACES_OR_NUMBERS),
  message: requiredText(4096),
  category_uuid: Uuid.nullable().optional(),
  /** A file stored by POST /api/v1/storage/files. */
  annex_uuid: Uuid.nullable().optional(),
  /** Empty: every sector. */
  sector_uuids: z.array(Uuid).max(200).optional(),
});
export type CannedResponseBody = z.infer<typeof CannedResponseBodySchema>;

const CATEGORIES = '/api/v1/workspaces/me/canned_response_categories';
const CANNED = '/api/v1/workspaces/me/canned_responses';
export const listCannedCategories = route({
  method: 'GET',
  path: CATEGORIES,
  tags: ['canned responses'],
  summary: "The workspace's canned response categories, by name.",
  response: z.object({ data: z.array(CannedCategorySchema) }),
});
export const createCannedCategory = route({
  method: 'POST',
  path: CATEGORIES,
  tags: ['canned responses'],
  summary: 'Creates a canned response category.',
  body: CannedCategoryBodySchema,
  response: dataOf(CannedCategorySchema),
  status: 201,
  errors: ['canned_category_name_taken'],
});
export const updateCannedCategory = route({
  method: 'PATCH',
  path: `${CATEGORIES}/:id`,
  tags: ['canned responses'],
  summary: 'Edits a canned response category; only the fields sent change.',
  params: UuidParam,
  body: CannedCategoryBodySchema.partial(),
  response: dataOf(CannedCategorySchema),
  errors: ['canned_category_not_found', 'canned_category_name_taken'],
});
export const deleteCannedCategory = route({
  method: 'DELETE',
  path: `${CATEGORIES}/:id`,
  tags: ['canned responses'],
  summary: 'Deletes a canned response category; its responses stay, without a category.',
  params: UuidParam,
  response: Ok,
  errors: ['canned_category_not_found'],
});
export const listCannedResponses = route({
  method: 'GET',
  path: CANNED,
  tags: ['canned responses'],
  summary: "The workspace's canned responses by keyword (`_limit=0`: all), optionally filtered by keyword or category.",
  query: PageQuery.extend({ keyword__contains: z.string().trim().max(60).optional(), category_uuid: Uuid.optional() }),
  response: pageOf(CannedResponseSchema),
});
export const createCannedResponse = route({
  method: 'POST',
  path: CANNED,
  tags: ['canned responses'],
  summary: 'Creates a canned response.',
  body: CannedResponseBodySchema,
  response: dataOf(CannedResponseSchema),
  status: 201,
  errors: ['canned_keyword_taken', 'canned_category_not_found', 'file_not_found', 'sector_not_found'],
});
export const updateCannedResponse = route({
  method: 'PATCH',
  path: `${CANNED}/:id`,
  tags: ['canned responses'],
  summary: 'Edits a canned response; only the fields sent change.',
  params: UuidParam,
  body: CannedResponseBodySchema.partial(),
  response: dataOf(CannedResponseSchema),
  errors: ['canned_response_not_found', 'canned_keyword_taken', 'canned_category_not_found', 'file_not_found', 'sector_not_found'],
});
export const deleteCannedResponse = route({
  method: 'DELETE',
  path: `${CANNED}/:id`,
  tags: ['canned responses'],
  summary: 'Deletes a canned response.',
  params: UuidParam,
  response: Ok,
  errors: ['canned_response_not_found'],
});
