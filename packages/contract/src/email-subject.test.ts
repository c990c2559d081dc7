import { describe, expect, it } from 'vitest';
import { emailHeadersOf, replySubject, threadSubjectOf } from './email-subject';

describe('e-mail details read from a stored message', () => {
  it('reads what it finds and nothing of a message that is no e-mail or a malformed one', () => {
    expect(
      emailHeadersOf({
        type: 'email',
        subject: 'Pedido',
        from: { address: 'ana@x.test', name: 'Ana' },
        full_text: 'x',
        references: ['<a@x>', 7],
      }),
    ).toEqual({ subject: 'Pedido', from: 'Ana <ana@x.test>', fullText: 'x', references: ['<a@x>'] });
    expect(emailHeadersOf({ type: 'email', from: { address: 'bia@x.test', name: '' } })).toEqual({
      subject: null,
      from: 'bia@x.test',
      fullText: null,
      references: [],
    });
    expect(emailHeadersOf({ type: 'email', subject: 42, from: 'ana@x.test', references: 'no' })).toEqual({
      subject: null,
      from: null,
      fullText: null,
      references: [],
    });
    for (const other of [null, undefined, 'email', 3, [], { type: 'location' }]) expect(emailHeadersOf(other)).toBeNull();
  });

  it("takes the thread's subject from the replied mail, else the latest mail with one", () => {
    const first = { type: 'email', subject: 'Pedido 4521' };
    const second = { type: 'email', subject: 'RE: Nota fiscal' };
    expect(threadSubjectOf([first, second, null, { type: 'email' }])).toBe('RE: Nota fiscal');
    expect(threadSubjectOf([first, second], first)).toBe('Pedido 4521');
    expect(threadSubjectOf([first], { type: 'location' })).toBe('Pedido 4521');
    expect(threadSubjectOf([])).toBeNull();
    expect(replySubject(threadSubjectOf([first, second]))).toBe('Re: Nota fiscal');
  });
});
