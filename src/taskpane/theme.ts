/**
 * The pane follows Office's theme (Office.context.officeTheme: Colorful and
 * White are light, Dark Gray and Black dark), and the system's colour scheme
 * where Office does not say (a browser, an older host). It sets
 * <html data-theme="light|dark" data-theme-source="office|system">; the
 * style sheet does the rest.
 */
import { isDarkBackground, parseColor } from './contrast';

export type ThemeName = 'light' | 'dark';
export interface ThemeChoice {
  name: ThemeName;
  source: 'office' | 'system';
}

/** Office's theme when it gives a usable body background, else the system preference. */
export function chooseTheme(office: { bodyBackgroundColor?: unknown } | null | undefined, systemDark: boolean): ThemeChoice {
  const bg = typeof office?.bodyBackgroundColor === 'string' ? parseColor(office.bodyBackgroundColor) : null;
  if (bg) return { name: isDarkBackground(bg) ? 'dark' : 'light', source: 'office' };
  return { name: systemDark ? 'dark' : 'light', source: 'system' };
}

function officeTheme(): { bodyBackgroundColor?: unknown } | null {
  try {
    return typeof Office !== 'undefined' ? (Office.context?.officeTheme ?? null) : null;
  } catch {
    return null;
  }
}

const systemDark = () => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

/** The theme as Office (once ready) or the system says now. */
export function applyTheme(root: HTMLElement = document.documentElement): void {
  const t = chooseTheme(officeTheme(), systemDark());
  root.dataset.theme = t.name;
  root.dataset.themeSource = t.source;
}

/** Once Office is ready: apply the theme, and again whenever the system's or (where Office reports it) Office's theme changes. */
export function followTheme(root: HTMLElement = document.documentElement): void {
  const apply = () => applyTheme(root);
  apply();
  const media = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
  media?.addEventListener('change', apply);
  try {
    // Not every host raises it (Excel may not): then the theme is read again when the pane reopens.
    Office.context?.document?.addHandlerAsync?.(Office.EventType.OfficeThemeChanged, apply);
  } catch {
    // no Office, or no such event here
  }
}
