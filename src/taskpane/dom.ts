/** The few DOM helpers every section of the pane uses. */
import type { Message } from './messages';

export const el = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`task pane: #${id} missing`);
  return e as T;
};

export function show(target: HTMLElement, m: Message | null): void {
  target.textContent = m?.text ?? '';
  if (m) target.dataset.tone = m.tone;
  else delete target.dataset.tone;
}

/** aria-disabled rather than disabled, so a button pressed from the keyboard keeps the focus. */
export function busy(button: HTMLElement, on: boolean): void {
  if (on) {
    button.setAttribute('aria-disabled', 'true');
    button.setAttribute('aria-busy', 'true');
  } else {
    button.removeAttribute('aria-disabled');
    button.removeAttribute('aria-busy');
  }
}

export const isBusy = (button: HTMLElement) => button.getAttribute('aria-busy') === 'true';
