import { useEffect, useState } from 'react';

/** Marks the chat text an agent may bind to a field (the workstation sets it on message bodies). */
export const BINDABLE_SELECTOR = '[data-bindable-text="true"]';
const MAX_SELECTION = 5000;

function bindableElementOf(node: Node | null): Element | null {
  const element = node instanceof Element ? node : (node?.parentElement ?? null);
  return element?.closest(BINDABLE_SELECTOR) ?? null;
}

/** The text of the current selection when it lies inside one bindable element, else null. */
export function bindableSelectionText(selection: Selection | null): string | null {
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null;
  const anchor = bindableElementOf(selection.anchorNode);
  if (!anchor || anchor !== bindableElementOf(selection.focusNode)) return null;
  const text = selection.toString().trim();
  return text ? text.slice(0, MAX_SELECTION) : null;
}

/**
 * The last text the agent selected in the chat (selected-text binding). It stays while
 * the agent moves to the panel to pick a field (that click collapses the selection) and goes when
 * it is bound, discarded, or `resetKey` (the conversation) changes.
 */
export function useBindableSelection(resetKey: string): { text: string | null; clear(): void } {
  const [captured, setCaptured] = useState<{ key: string; text: string } | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      clearTimeout(timer);
      // selectionchange fires on every step of a drag: read the selection once it settles.
      timer = setTimeout(() => {
        const text = bindableSelectionText(document.getSelection());
        if (text) setCaptured({ key: resetKey, text });
      }, 150);
    };
    document.addEventListener('selectionchange', onChange);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('selectionchange', onChange);
    };
  }, [resetKey]);
  return { text: captured?.key === resetKey ? captured.text : null, clear: () => setCaptured(null) };
}
