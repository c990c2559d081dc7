import { describe, expect, it } from 'vitest';
import { AddConversationFieldSchema, EditConversationFieldSchema } from './conversationFieldForms';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

// Conversation fields.
describe('conversation field forms', () => {
  it("adding requires a field ('Campo obrigatório') and a value ('Valor é obrigatório')", () => {
    expect(messages(AddConversationFieldSchema.safeParse({ field_uuid: '', field_value: '  ' }))).toEqual({
      field_uuid: 'Campo obrigatório',
      field_value: 'Valor é obrigatório',
    });
    expect(AddConversationFieldSchema.parse({ field_uuid: 'f1', field_value: ' 123 ' })).toEqual({ field_uuid: 'f1', field_value: '123' });
  });
  it("editing requires a value ('Campo obrigatório'), at most 2000 characters", () => {
    expect(messages(EditConversationFieldSchema.safeParse({ field_value: '' }))).toEqual({ field_value: 'Campo obrigatório' });
    expect(messages(EditConversationFieldSchema.safeParse({ field_value: 'x'.repeat(2001) }))).toEqual({
      field_value: 'Máximo de 2000 caracteres',
    });
  });
});
