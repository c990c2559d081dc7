import { describe, expect, it } from 'vitest';
import { fillPlaceholders, searchCanned } from './canned';

const responses = [
  { keyword: 'saudacao', message: '{{user_name}} aqui, Olá!', category: { name: 'Início' } },
  { keyword: 'fim', message: 'Obrigado por falar com {{workspace_name}}', category: null },
];

// Canned search is accent- and case-insensitive prefix matching on category or on the
// text with placeholders removed; placeholders are replaced by the stored values.
describe('canned responses', () => {
  it('matches prefixes regardless of accents and case', () => {
    expect(searchCanned('SAUD', responses).map((r) => r.keyword)).toEqual(['saudacao']);
    expect(searchCanned('inic', responses).map((r) => r.keyword)).toEqual(['saudacao']);
    expect(searchCanned('obrigado', responses).map((r) => r.keyword)).toEqual(['fim']);
    expect(searchCanned('aqui', responses).map((r) => r.keyword)).toEqual(['saudacao']);
    expect(searchCanned('ola', responses)).toEqual([]);
  });
  it('replaces user and workspace placeholders', () => {
    expect(fillPlaceholders(responses[1]!.message, { userName: 'Ana', workspaceName: 'Acme' })).toBe('Obrigado por falar com Acme');
    expect(fillPlaceholders('{{ USER_NAME }} {{unknown}}', { userName: 'Ana', workspaceName: 'Acme' })).toBe('Ana {{unknown}}');
  });
});
