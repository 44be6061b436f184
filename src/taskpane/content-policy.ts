/**
 * Reading a page's Content-Security-Policy: the package check reads the built
 * pages' (scripts/content-policy.ts), the pane its own, to say before saving a
 * custom API address that this build would block it.
 */

export type Policy = Record<string, string[]>;

/** Directives by name; a repeated directive is ignored, as browsers do (CSP Level 3, "parse a serialized CSP"). */
export function parsePolicy(text: string): Policy {
  const out: Policy = {};
  for (const part of text.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name && !Object.hasOwn(out, name.toLowerCase())) out[name.toLowerCase()] = values;
  }
  return out;
}

/**
 * Whether a page's policy lets it connect to `origin` (connect-src, else
 * default-src; CSP Level 3 source lists: *, 'self', schemes, hosts with an
 * optional *. prefix); null when there is no policy. The production build
 * allows only the API's origin: a custom address there would fail every request.
 */
export function policyAllowsConnect(policy: string | null, origin: string, selfOrigin: string): boolean | null {
  if (!policy) return null;
  const directives = parsePolicy(policy);
  const sources = directives['connect-src'] ?? directives['default-src'];
  if (!sources) return true;
  const u = new URL(origin);
  return sources.some((raw) => {
    const s = raw.replace(/\/+$/, '').toLowerCase();
    if (s === '*') return u.protocol === 'https:' || u.protocol === 'http:';
    if (s === "'self'") return u.origin === new URL(selfOrigin).origin;
    if (/^[a-z][a-z0-9+.-]*:$/.test(s)) return u.protocol === s;
    const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([^/:]+)(?::(\d+|\*))?$/.exec(s);
    if (!m) return false;
    const [, scheme, wild, host, port] = m;
    if (scheme && `${scheme}:` !== u.protocol) return false;
    const hostOk = wild ? u.hostname.endsWith(`.${host}`) : u.hostname === host;
    const defaultPort = u.protocol === 'https:' ? '443' : '80';
    const portOk = port === '*' || (port ?? defaultPort) === (u.port || defaultPort);
    return hostOk && portOk;
  });
}
