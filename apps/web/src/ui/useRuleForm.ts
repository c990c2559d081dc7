import type { FieldIssue } from '@atende/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formMessageText } from '../api/errors';

/** The translated message of the first issue on `path`, for a field's `error`. */
export function useIssueText(issues: FieldIssue[]): (path: string) => string | undefined {
  const { t } = useTranslation();
  return (path) => {
    const issue = issues.find((i) => i.path === path);
    return issue ? formMessageText(issue.message, t) : undefined;
  };
}

/**
 * A form checked by the same rules the api applies (packages/core): its draft, a patch setter, and
 * the fields' messages, shown once the user has tried to submit; `submit` runs `onValid` only when
 * no rule is broken.
 */
export function useRuleForm<D>(initial: () => D, rules: (draft: D) => FieldIssue[]) {
  const [draft, setDraft] = useState<D>(initial);
  const [submitted, setSubmitted] = useState(false);
  const errorOf = useIssueText(submitted ? rules(draft) : []);
  const set = (patch: Partial<D>) => setDraft((d) => ({ ...d, ...patch }));
  const submit = (onValid: () => void) => {
    setSubmitted(true);
    if (rules(draft).length === 0) onValid();
  };
  return { draft, set, errorOf, submit };
}
