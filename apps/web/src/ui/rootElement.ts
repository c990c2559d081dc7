/** The page's #root, where each entry (index.html, login.html) renders. */
export function rootElement(): HTMLElement {
  const root = document.getElementById('root');
  if (!root) throw new Error('the page has no #root element');
  return root;
}
