/**
 * Which endpoint a request path addresses: every path of the endpoint table
 * (src/api/endpoints.ts), static ones looked up, `{id}` templates matched
 * segment by segment.
 */
import { ENDPOINTS, ENDPOINT_NAMES, type EndpointName } from '../api/endpoints';

interface Route {
  name: EndpointName;
  segments: string[];
  idIndex: number;
}
const STATIC_ROUTES = new Map<string, EndpointName>();
const TEMPLATE_ROUTES: Route[] = [];
for (const name of ENDPOINT_NAMES) {
  const path: string = ENDPOINTS[name].path;
  const segments = path.split('/');
  const idIndex = segments.indexOf('{id}');
  if (idIndex < 0) STATIC_ROUTES.set(path, name);
  else TEMPLATE_ROUTES.push({ name, segments, idIndex });
}

/** The endpoint a pathname addresses (static paths win over `{id}` templates), with the raw id segment. */
export function matchRoute(pathname: string): { name: EndpointName; rawId?: string } | null {
  const s = STATIC_ROUTES.get(pathname);
  if (s) return { name: s };
  const parts = pathname.split('/');
  for (const r of TEMPLATE_ROUTES) {
    if (r.segments.length !== parts.length) continue;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      if (i === r.idIndex) ok = parts[i] !== '';
      else ok = parts[i] === r.segments[i];
    }
    if (ok) return { name: r.name, rawId: parts[r.idIndex] };
  }
  return null;
}

export function parseId(raw: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) ? n : null;
}
