import { CUSTOM_FIELD_MAX } from '@atende/contract';
import { maxLengthMessage } from '@atende/core';
import { z } from 'zod';

const value = (requiredMessage: string) =>
  z.string().trim().min(1, requiredMessage).max(CUSTOM_FIELD_MAX, maxLengthMessage(CUSTOM_FIELD_MAX));

/** Adding needs a field ('Campo obrigatório') and a value ('Valor é obrigatório'). */
export const AddConversationFieldSchema = z.object({
  field_uuid: z.string().min(1, 'Campo obrigatório'),
  field_value: value('Valor é obrigatório'),
});
export type AddConversationField = z.infer<typeof AddConversationFieldSchema>;

/** Editing needs a value ('Campo obrigatório'). */
export const EditConversationFieldSchema = z.object({ field_value: value('Campo obrigatório') });
export type EditConversationField = z.infer<typeof EditConversationFieldSchema>;
