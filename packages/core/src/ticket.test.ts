import { describe, expect, it } from 'vitest';
import { ticketAnnouncement } from './ticket';

describe('sector ticket announcement', () => {
  it('puts the number and the sector where the message says', () => {
    expect(ticketAnnouncement('Seu protocolo no setor {{sector}} é {{ticket}}. Aguarde!', 1042, 'Vendas')).toBe(
      'Seu protocolo no setor Vendas é 1042. Aguarde!',
    );
    expect(ticketAnnouncement('Protocolo {{ TICKET }}', 7, 'X')).toBe('Protocolo 7');
  });

  it('follows a message without the placeholder with the number', () => {
    expect(ticketAnnouncement('  Seu protocolo de atendimento é:  ', 55, 'Suporte')).toBe('Seu protocolo de atendimento é: 55');
  });
});
