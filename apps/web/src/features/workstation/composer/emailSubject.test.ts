import type { Message } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { ownSubject, replySubjectFor } from './emailSubject';

const mail = (subject: string | null): Pick<Message, 'interactive_content'> => ({
  interactive_content: subject ? { type: 'email', subject } : null,
});

describe('the subject of an e-mail reply', () => {
  it("is the replied mail's, else the latest mail's, under one Re:", () => {
    const first = mail('Pedido 4521');
    const second = mail('RE: Nota fiscal');
    expect(replySubjectFor([first, second, mail(null)], null)).toBe('Re: Nota fiscal');
    expect(replySubjectFor([first, second], first)).toBe('Re: Pedido 4521');
    expect(replySubjectFor([], null)).toBe('Re:');
  });
  it('is sent only when the agent typed another one (a new thread)', () => {
    expect(ownSubject(null, 'Re: Pedido')).toBeUndefined();
    expect(ownSubject('  Re: Pedido ', 'Re: Pedido')).toBeUndefined();
    expect(ownSubject('   ', 'Re: Pedido')).toBeUndefined();
    expect(ownSubject('Troca do produto', 'Re: Pedido')).toBe('Troca do produto');
  });
});
