/**
 * An entity's card, as Excel opens it from the icon of a data-type cell
 * (learn.microsoft.com/office/dev/add-ins/excel/excel-data-types-entity-card):
 * the title (a property or text) and subtitle, the main image, the sections of
 * `layouts.card` in order (a titled section collapsible, `collapsed` closed),
 * each property's label and value in its own format, and the provider's
 * attribution (its description, linked to logoTargetAddress). Without a card
 * layout every property is listed. Images are not downloaded (the preview has
 * no internet): the main image shows its alternative text.
 */
import type { DateSystem } from '../../engine/date-system';
import { isEntityValue, isFormattedNumber, type EntityValue } from '../../engine/values';
import { displayText } from './format';

interface CardLayout {
  title?: string | { property?: string };
  subTitle?: { property?: string };
  mainImage?: { property?: string };
  sections?: { layout?: string; title?: string; collapsible?: boolean; collapsed?: boolean; properties?: unknown }[];
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** A property's value as the card shows it; a date in the workbook's date system (`dates`), as the add-in writes it. */
export function propertyText(p: unknown, dates: DateSystem = '1900'): string {
  if (p === null || p === undefined) return '';
  if (typeof p !== 'object') return typeof p === 'boolean' ? (p ? 'TRUE' : 'FALSE') : String(p);
  if (isFormattedNumber(p)) return displayText(p, undefined, dates);
  if (isEntityValue(p)) return p.text;
  const o = obj(p);
  if (o.type === 'WebImage') return typeof o.altText === 'string' ? o.altText : 'Image';
  const b = o.basicValue;
  if (typeof b === 'number') return typeof o.numberFormat === 'string' ? displayText({ type: 'FormattedNumber', basicValue: b, numberFormat: o.numberFormat }, undefined, dates) : displayText(b);
  if (typeof b === 'boolean') return b ? 'TRUE' : 'FALSE';
  return typeof b === 'string' ? b : '';
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

const httpsLink = (url: unknown): string | null => (typeof url === 'string' && /^https:\/\/[^\s"<>]+$/i.test(url) ? url : null);

function link(href: string, text: string): HTMLAnchorElement {
  const a = el('a', undefined, text);
  a.href = href;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  return a;
}

/** The card's element for an entity (a dialog labelled by its title). */
export function cardElement(entity: EntityValue, dates: DateSystem = '1900'): HTMLElement {
  const props = obj(entity.properties);
  const layout = obj(obj(entity.layouts).card) as CardLayout;
  const named = (ref: { property?: string } | undefined) => (ref?.property && Object.hasOwn(props, ref.property) ? propertyText(props[ref.property], dates) : '');
  const title = typeof layout.title === 'string' ? layout.title : named(layout.title) || entity.text;

  const card = el('div', 'entity-card');
  card.setAttribute('role', 'dialog');
  card.setAttribute('aria-label', `${title} card`);
  card.tabIndex = -1;
  const head = el('header');
  const image = layout.mainImage?.property ? props[layout.mainImage.property] : undefined;
  if (image !== undefined) {
    const img = el('div', 'entity-image', propertyText(image));
    img.setAttribute('role', 'img');
    img.setAttribute('aria-label', propertyText(image));
    img.title = String(obj(image).address ?? '');
    head.append(img);
  }
  head.append(el('h2', undefined, title));
  const sub = named(layout.subTitle);
  if (sub) head.append(el('p', 'entity-subtitle', sub));
  const close = el('button', 'entity-close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close card');
  head.append(close);
  card.append(head);

  const sections = Array.isArray(layout.sections) ? layout.sections : [{ properties: Object.keys(props) }];
  for (const s of sections) {
    const names = (Array.isArray(s.properties) ? s.properties : []).filter((n): n is string => typeof n === 'string' && Object.hasOwn(props, n));
    if (names.length === 0) continue;
    const list = el('dl');
    for (const n of names) {
      const dd = el('dd', undefined, propertyText(props[n], dates));
      const attribution = obj(obj(props[n]).propertyMetadata).attribution;
      const source = Array.isArray(attribution) ? attribution[0] : undefined;
      const href = httpsLink(obj(source).sourceAddress);
      if (href) {
        dd.append(' ');
        dd.append(link(href, typeof obj(source).sourceText === 'string' ? `(${obj(source).sourceText as string})` : '(source)'));
      }
      list.append(el('dt', undefined, n), dd);
    }
    if (s.title) {
      // A titled section is collapsible unless it says not (CardLayoutSectionStandardProperties).
      const details = el('details', 'entity-section');
      details.open = s.collapsed !== true || s.collapsible === false;
      details.append(el('summary', undefined, s.title), list);
      card.append(details);
    } else {
      const section = el('section', 'entity-section');
      section.append(list);
      card.append(section);
    }
  }

  const provider = obj(entity.provider);
  if (typeof provider.description === 'string' && provider.description !== '') {
    const foot = el('footer', 'entity-provider', 'Data from ');
    const href = httpsLink(provider.logoTargetAddress);
    foot.append(href ? link(href, provider.description) : provider.description);
    card.append(foot);
  }
  return card;
}

/** One card open at a time, beside the cell it belongs to; Escape, its close button or a click elsewhere closes it. */
export class CardPopup {
  private open: { card: HTMLElement; address: string } | null = null;

  constructor(private readonly doc: Document = document) {
    doc.addEventListener('mousedown', (e) => {
      if (this.open && !this.open.card.contains(e.target as Node)) this.close();
    }, true);
    doc.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.open) this.close();
    });
  }

  get address(): string | null {
    return this.open?.address ?? null;
  }

  show(entity: EntityValue, address: string, anchor: HTMLElement, dates: DateSystem = '1900'): void {
    this.close();
    const card = cardElement(entity, dates);
    card.dataset.address = address;
    const r = anchor.getBoundingClientRect();
    card.style.left = `${Math.round(r.left + window.scrollX)}px`;
    card.style.top = `${Math.round(r.bottom + window.scrollY + 2)}px`;
    card.querySelector('.entity-close')?.addEventListener('click', () => this.close());
    this.doc.body.append(card);
    this.open = { card, address };
  }

  close(): void {
    this.open?.card.remove();
    this.open = null;
  }
}
