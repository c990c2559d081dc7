import { describe, expect, it } from 'vitest';
import { matchSurveyAnswer, surveyIssues, surveyPrompt, SURVEY_MESSAGES } from './surveys';

const valid = { name: 'NPS', question: 'How did we do?', options: ['Great', 'Okay', 'Bad'], greeting_message: 'Thank you!' };

describe('surveyIssues', () => {
  it('accepts a complete survey', () => {
    expect(surveyIssues(valid)).toEqual([]);
  });
  it('requires the texts and at least two non-empty answers', () => {
    expect(surveyIssues({ name: ' ', question: '', options: ['Only'], greeting_message: '' })).toEqual([
      { path: 'name', message: SURVEY_MESSAGES.nameRequired },
      { path: 'question', message: SURVEY_MESSAGES.questionRequired },
      { path: 'greeting_message', message: SURVEY_MESSAGES.greetingRequired },
      { path: 'options', message: SURVEY_MESSAGES.tooFew },
    ]);
    expect(surveyIssues({ ...valid, options: ['Yes', ' '] })).toEqual([{ path: 'options.1', message: SURVEY_MESSAGES.optionRequired }]);
  });
  it('flags each repeated answer, ignoring case and accents', () => {
    expect(surveyIssues({ ...valid, options: ['Ótimo', 'Bom', 'otimo', 'BOM '] })).toEqual([
      { path: 'options.2', message: SURVEY_MESSAGES.repeated },
      { path: 'options.3', message: SURVEY_MESSAGES.repeated },
    ]);
  });
  it('limits lengths and the number of answers', () => {
    expect(surveyIssues({ ...valid, question: 'x'.repeat(1001) })).toEqual([{ path: 'question', message: '1000 characters maximum' }]);
    expect(surveyIssues({ ...valid, options: Array.from({ length: 11 }, (_, i) => `A${i}`) })).toEqual([
      { path: 'options', message: SURVEY_MESSAGES.tooMany },
    ]);
  });
});

describe('matchSurveyAnswer', () => {
  const options = ['Ótimo', 'Regular', 'Ruim'];
  it('takes the number of an answer', () => {
    expect(matchSurveyAnswer(options, '1')).toBe(0);
    expect(matchSurveyAnswer(options, ' 3. ')).toBe(2);
    expect(matchSurveyAnswer(options, '2)')).toBe(1);
  });
  it('takes the text of an answer without regard to case or accents', () => {
    expect(matchSurveyAnswer(options, 'otimo')).toBe(0);
    expect(matchSurveyAnswer(options, 'RUIM')).toBe(2);
  });
  it('answers null for anything else', () => {
    expect(matchSurveyAnswer(options, '4')).toBeNull();
    expect(matchSurveyAnswer(options, '0')).toBeNull();
    expect(matchSurveyAnswer(options, 'I still have a problem with my order')).toBeNull();
    expect(matchSurveyAnswer(options, '')).toBeNull();
  });
});

describe('surveyPrompt', () => {
  it('numbers the answers under the question', () => {
    expect(surveyPrompt('How did we do?', ['Great', 'Bad'])).toBe('How did we do?\n\n1. Great\n2. Bad');
  });
});
