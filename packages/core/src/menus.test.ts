import { describe, expect, it } from 'vitest';
import { matchMenuAnswer, menuIssues, menuPrompt, MENU_MESSAGES, type MenuInput } from './menus';

const valid: MenuInput = {
  name: 'Welcome',
  message: 'Hi! How can we help?',
  invalid_option_message: 'Please answer with one of the options.',
  answers: [
    { key: '1', label: 'Sales', action: { type: 'transfer_to_sector', sector_uuid: 's-1' } },
    { key: '2', label: 'Goodbye', action: { type: 'end_conversation', message: 'Bye!' } },
  ],
};

describe('menuIssues', () => {
  it('accepts a complete menu', () => {
    expect(menuIssues(valid)).toEqual([]);
  });
  it('wants answers non-empty and unique, each with an action', () => {
    const issues = menuIssues({
      ...valid,
      answers: [
        { key: ' ', label: 'A', action: { type: 'end_conversation' } },
        { key: '1', label: 'B', action: { type: '' } },
        { key: ' 1', label: 'C', action: { type: 'transfer_to_sector', sector_uuid: null } },
        { key: '3', label: '', action: { type: 'go_to_menu' } },
      ],
    });
    expect(issues).toEqual([
      { path: 'answers.0.key', message: MENU_MESSAGES.answerRequired },
      { path: 'answers.1.action', message: MENU_MESSAGES.actionRequired },
      { path: 'answers.2.key', message: MENU_MESSAGES.unique },
      { path: 'answers.2.action', message: MENU_MESSAGES.sectorRequired },
      { path: 'answers.3.label', message: MENU_MESSAGES.labelRequired },
      { path: 'answers.3.action', message: MENU_MESSAGES.menuRequired },
    ]);
  });
  it('requires the texts and at least one answer', () => {
    expect(menuIssues({ name: '', message: '', invalid_option_message: '', answers: [] }).map((i) => i.message)).toEqual([
      MENU_MESSAGES.nameRequired,
      MENU_MESSAGES.messageRequired,
      MENU_MESSAGES.invalidRequired,
      MENU_MESSAGES.noAnswers,
    ]);
  });
});

describe('matchMenuAnswer and menuPrompt', () => {
  it('matches the key or the label, without regard to case or accents', () => {
    expect(matchMenuAnswer(valid.answers, ' 2 ')).toBe(1);
    expect(matchMenuAnswer(valid.answers, 'SALES')).toBe(0);
    expect(matchMenuAnswer([{ key: 'a', label: 'Férias' }], 'ferias')).toBe(0);
    expect(matchMenuAnswer(valid.answers, '3')).toBe(-1);
    expect(matchMenuAnswer(valid.answers, '')).toBe(-1);
  });
  it('lists the answers under the message', () => {
    expect(menuPrompt(valid.message, valid.answers)).toBe('Hi! How can we help?\n\n1 - Sales\n2 - Goodbye');
  });
});
