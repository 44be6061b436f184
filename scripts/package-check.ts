/**
 * What makes dist/ a publishing package: one table of rules, checked by the
 * production build (webpack.config.js, PackageCheckPlugin, which fails the build)
 * and by test/build.test.ts (which also breaks each rule on purpose).
 *
 *   node --import tsx scripts/package-check.ts [dir]     default: dist
 *
 * A rule returns the problems it found as sentences naming the file at fault;
 * an empty list means the package can go to any static HTTPS host.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEMO_KEYS } from '../src/emulator/accounts';
import { contentPolicy, DEFAULT_API_ORIGIN, pagePolicy, policyText } from './content-policy';
import { formatProblems, validateManifest } from './validate-manifest';

/** Every icon the manifest and the store listing use: 16/32/80 ribbon, 32/64 IconUrl and HighResolutionIconUrl, the 300 x 300 store logo. */
export const ICON_SIZES = [16, 32, 64, 80, 300] as const;
export const iconFile = (size: number) => `assets/icon-${size}.png`;
/** Sizes Office requires of the two top-level icons of a task pane add-in. */
const TOP_ICON_SIZES: Record<string, number> = { IconUrl: 32, HighResolutionIconUrl: 64 };

export interface PackageSpec {
  /** ADDIN_PUBLIC_URL, ending in '/': where the package is hosted. */
  publicUrl: string;
  /** package.json's version (a.b.c). */
  version: string;
  /** Source maps were asked for (ADDIN_SOURCE_MAPS=1). */
  sourceMaps: boolean;
  /** The API the add-in talks to (ADDIN_API_URL, default https://api.cryptorank.io): the only host its pages may connect to. */
  apiOrigin: string;
}

export interface PackageProblem {
  rule: RuleId;
  message: string;
}

/** The package as read from disk: relative paths with '/' and a text reader. */
interface Pkg {
  dir: string;
  files: Set<string>;
  text(rel: string): string;
}

const TEXT = /\.(html|js|json|xml|css|txt|map|md)$/;
const LOOPBACK_URL = /\b(?:https?|wss?):\/\/(?:localhost|127(?:\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)(?=[:/"'\s<]|$)/i;
/** Strings only a development build carries: the local Office.js copy, the demo banner, the demo keys. */
const DEVELOPMENT_MARKERS = ['office-js/office.js', 'id="demo-banner"', ...Object.keys(DEMO_KEYS)];

/** Every URL-valued attribute of the manifest (DefaultValue, Override Value, ...), with its element. */
function manifestUrls(xml: string): { element: string; url: string }[] {
  const out: { element: string; url: string }[] = [];
  for (const tag of xml.matchAll(/<([\w:]+)\b([^>]*)>/g)) {
    for (const a of tag[2].matchAll(/([\w:]+)="([a-z][a-z0-9+.-]*:\/\/[^"]*)"/gi)) {
      if (a[1].startsWith('xmlns')) continue; // namespaces, not locations
      out.push({ element: tag[1], url: a[2] });
    }
  }
  return out;
}

/** The package file a URL names, or null when it is not on the public URL. */
function fileOf(url: string, publicUrl: string): string | null {
  if (!url.startsWith(publicUrl)) return null;
  return decodeURIComponent(url.slice(publicUrl.length).replace(/[?#].*$/, '')) || null;
}

function pngSize(pkg: Pkg, rel: string): { width: number; height: number } | null {
  const b = readFileSync(path.join(pkg.dir, rel));
  if (b.length < 24 || b.readUInt32BE(0) !== 0x89504e47 || b.toString('ascii', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

function checkIcon(pkg: Pkg, rel: string, size: number, what: string): string[] {
  if (!pkg.files.has(rel)) return [`${what}: ${rel} is missing (npm run icons draws it)`];
  const s = pngSize(pkg, rel);
  if (!s) return [`${what}: ${rel} is not a PNG`];
  return s.width === size && s.height === size ? [] : [`${what}: ${rel} is ${s.width}x${s.height}, not ${size}x${size}`];
}

type Rule = { id: string; why: string; check(pkg: Pkg, spec: PackageSpec): string[] | Promise<string[]> };

export const RULES = [
  {
    id: 'public-url',
    why: 'The catalog and Office load the add-in over HTTPS from a public host.',
    check: (_pkg, spec) => {
      let u: URL;
      try {
        u = new URL(spec.publicUrl);
      } catch {
        return [`ADDIN_PUBLIC_URL ${spec.publicUrl} is not a URL`];
      }
      const out: string[] = [];
      if (u.protocol !== 'https:') out.push(`ADDIN_PUBLIC_URL ${spec.publicUrl} is not https://`);
      if (LOOPBACK_URL.test(spec.publicUrl)) out.push(`ADDIN_PUBLIC_URL ${spec.publicUrl} is this computer, not a public host`);
      if (!spec.publicUrl.endsWith('/')) out.push(`ADDIN_PUBLIC_URL ${spec.publicUrl} must end with /`);
      return out;
    },
  },
  {
    id: 'manifest-schema',
    why: 'The catalog rejects a manifest its schemas reject.',
    check: async (pkg) => {
      if (!pkg.files.has('manifest.xml')) return ['manifest.xml is missing'];
      const v = await validateManifest(pkg.text('manifest.xml'), 'manifest.xml');
      return v.valid ? [] : [formatProblems('manifest.xml', v)];
    },
  },
  {
    id: 'manifest-urls',
    why: 'Every page, script and image the manifest names must be served from the package on its host.',
    check: (pkg, spec) => {
      if (!pkg.files.has('manifest.xml')) return [];
      return manifestUrls(pkg.text('manifest.xml')).flatMap(({ element, url }) => {
        const rel = fileOf(url, spec.publicUrl);
        if (rel === null) return [`manifest.xml <${element}> ${url} is not on ${spec.publicUrl}`];
        return pkg.files.has(rel) ? [] : [`manifest.xml <${element}> ${url}: ${rel} is not in the package`];
      });
    },
  },
  {
    id: 'help-urls',
    why: "Excel links each function's help URL from the formula bar.",
    check: (pkg, spec) => {
      if (!pkg.files.has('functions.json')) return ['functions.json is missing'];
      const { functions } = JSON.parse(pkg.text('functions.json')) as { functions: { id: string; helpUrl?: string }[] };
      return functions.flatMap((f) => {
        if (!f.helpUrl) return [`functions.json ${f.id} has no help URL`];
        const rel = fileOf(f.helpUrl, spec.publicUrl);
        if (rel === null) return [`functions.json ${f.id} help URL ${f.helpUrl} is not on ${spec.publicUrl}`];
        return pkg.files.has(rel) ? [] : [`functions.json ${f.id} help URL ${f.helpUrl}: ${rel} is not in the package`];
      });
    },
  },
  {
    id: 'icons',
    why: 'The ribbon, the Add-ins dialog and the store listing each need an icon of an exact size.',
    check: (pkg, spec) => {
      const out = ICON_SIZES.flatMap((size) => checkIcon(pkg, iconFile(size), size, `${size}x${size} icon`));
      if (!pkg.files.has('manifest.xml')) return out;
      const xml = pkg.text('manifest.xml');
      for (const [element, size] of Object.entries(TOP_ICON_SIZES)) {
        const url = new RegExp(`<${element} DefaultValue="([^"]+)"`).exec(xml)?.[1];
        const rel = url && fileOf(url, spec.publicUrl);
        if (!url) out.push(`manifest.xml has no <${element}>`);
        else if (rel && pkg.files.has(rel)) out.push(...checkIcon(pkg, rel, size, `<${element}>`));
      }
      // A ribbon image is declared once (<bt:Image id DefaultValue>) and used with a size (<bt:Image size resid>).
      const urls = new Map([...xml.matchAll(/<bt:Image id="([^"]+)" DefaultValue="([^"]+)"/g)].map((m) => [m[1], m[2]]));
      for (const [, size, resid] of xml.matchAll(/<bt:Image size="(\d+)" resid="([^"]+)"/g)) {
        const rel = fileOf(urls.get(resid) ?? '', spec.publicUrl);
        if (!urls.has(resid)) out.push(`manifest.xml uses image ${resid}, which it does not declare`);
        else if (rel && pkg.files.has(rel)) out.push(...checkIcon(pkg, rel, Number(size), `ribbon image ${resid}`));
      }
      return [...new Set(out)];
    },
  },
  {
    id: 'version',
    why: 'The manifest version (a.b.c.d) is what Office and the catalog compare; it follows package.json (a.b.c).',
    check: (pkg, spec) => {
      if (!pkg.files.has('manifest.xml')) return [];
      const v = /<Version>([^<]*)<\/Version>/.exec(pkg.text('manifest.xml'))?.[1] ?? '';
      if (!/^\d{1,5}(\.\d{1,5}){3}$/.test(v)) return [`manifest.xml <Version> ${v || '(none)'} is not a.b.c.d`];
      if (!/^\d+\.\d+\.\d+$/.test(spec.version)) return [`package.json version ${spec.version} is not a.b.c`];
      return v.split('.').slice(0, 3).join('.') === spec.version ? [] : [`manifest.xml <Version> ${v} does not match package.json ${spec.version}`];
    },
  },
  {
    id: 'content-policy',
    why: 'Every page is locked down: scripts only from the add-in and the hosts Office.js loads, connections only to the API and Office.js\'s telemetry (scripts/content-policy.ts).',
    check: (pkg, spec) => {
      const want = contentPolicy({ apiOrigin: spec.apiOrigin, dev: false });
      return [...pkg.files].sort().filter((f) => f.endsWith('.html')).flatMap((rel) => {
        const { policy, problem } = pagePolicy(pkg.text(rel));
        if (!policy) return [`${rel}: ${problem}`];
        const out: string[] = [];
        for (const [directive, sources] of Object.entries(want)) {
          const got = (policy[directive] ?? []).join(' ');
          if (got !== sources.join(' ')) out.push(`${rel}: ${directive} is "${got}", expected "${sources.join(' ')}"`);
        }
        const extra = Object.keys(policy).filter((d) => !(d in want));
        if (extra.length) out.push(`${rel}: unexpected directives ${extra.join(', ')} (the policy is "${policyText(want)}")`);
        return out;
      });
    },
  },
  {
    id: 'no-development',
    why: 'What ships talks to the real API: no local API server, demo keys, loopback URLs or (unless asked) source maps.',
    check: (pkg, spec) => {
      const out: string[] = [];
      for (const rel of [...pkg.files].sort()) {
        if (rel.endsWith('.map') && !spec.sourceMaps) {
          out.push(`${rel}: a source map (build with ADDIN_SOURCE_MAPS=1 to ship them)`);
          continue;
        }
        if (!TEXT.test(rel)) continue;
        const text = pkg.text(rel);
        const url = LOOPBACK_URL.exec(text)?.[0];
        if (url) out.push(`${rel}: a loopback URL (${url})`);
        for (const m of DEVELOPMENT_MARKERS) if (text.includes(m)) out.push(`${rel}: development build content (${m})`);
        if (!spec.sourceMaps && /[#@] sourceMappingURL=/.test(text)) out.push(`${rel}: links a source map`);
      }
      return out;
    },
  },
] as const satisfies readonly Rule[];

export type RuleId = (typeof RULES)[number]['id'];

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix)).flatMap((name) => {
    const rel = prefix ? `${prefix}/${name}` : name;
    return statSync(path.join(dir, rel)).isDirectory() ? listFiles(dir, rel) : [rel];
  });
}

/** Every rule on the package in `dir`; [] when it is ready to publish. */
export async function checkPackage(dir: string, spec: PackageSpec): Promise<PackageProblem[]> {
  const cache = new Map<string, string>();
  const pkg: Pkg = {
    dir,
    files: new Set(listFiles(dir)),
    text: (rel) => cache.get(rel) ?? cache.set(rel, readFileSync(path.join(dir, rel), 'utf8')).get(rel)!,
  };
  const problems: PackageProblem[] = [];
  for (const rule of RULES as readonly Rule[]) {
    for (const message of await rule.check(pkg, spec)) problems.push({ rule: rule.id as RuleId, message });
  }
  return problems;
}

/** The spec of this checkout: package.json's version, ADDIN_PUBLIC_URL and ADDIN_SOURCE_MAPS from the environment. */
export function specFromEnv(root: string, env: NodeJS.ProcessEnv = process.env): PackageSpec {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  return { publicUrl: publicUrlFrom(env), version: pkg.version, sourceMaps: sourceMapsFrom(env), apiOrigin: apiOriginFrom(env) };
}

export const DEFAULT_PUBLIC_URL = 'https://crypto-addin.example.com/';
export const publicUrlFrom = (env: NodeJS.ProcessEnv) => (env.ADDIN_PUBLIC_URL || DEFAULT_PUBLIC_URL).replace(/\/?$/, '/');
export const apiOriginFrom = (env: NodeJS.ProcessEnv) => new URL(env.ADDIN_API_URL || DEFAULT_API_ORIGIN).origin;
export const sourceMapsFrom = (env: NodeJS.ProcessEnv) => /^(1|true|yes)$/i.test(env.ADDIN_SOURCE_MAPS ?? '');

export const formatPackageProblems = (problems: PackageProblem[]) => problems.map((p) => `[${p.rule}] ${p.message}`).join('\n');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(import.meta.dirname, '..');
  const dir = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
  checkPackage(dir, specFromEnv(root)).then((problems) => {
    if (problems.length) console.error(formatPackageProblems(problems));
    else console.log(`${dir} is ready to publish`);
    process.exit(problems.length ? 1 : 0);
  });
}
