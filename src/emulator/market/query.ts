/**
 * Reading a handler's query: the server has validated it against the endpoint table but
 * has NOT filled defaults; these helpers apply ENDPOINTS[name].params[key].default.
 */
import { ENDPOINTS, parseTimeParam, type ParamSpec } from '../../api/endpoints';
import { InvalidRequestError } from '../contract';
import type { DataEndpointName } from '../contract';

type Query = Readonly<Record<string, string>>;

function spec(name: DataEndpointName, key: string): ParamSpec {
  const s = (ENDPOINTS[name].params as Readonly<Record<string, ParamSpec>>)[key];
  if (!s) throw new Error(`${name} has no parameter ${key}`);
  return s;
}

/** The raw value, or the table's default as text, or undefined. */
export function param(name: DataEndpointName, q: Query, key: string): string | undefined {
  const raw = q[key];
  if (raw !== undefined) return raw;
  const s = spec(name, key);
  return 'default' in s && s.default !== undefined ? String(s.default) : undefined;
}

export function intParam(name: DataEndpointName, q: Query, key: string): number | undefined {
  const raw = param(name, q, key);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new InvalidRequestError(`${key} must be an integer number`);
  return n;
}

export function numberParam(name: DataEndpointName, q: Query, key: string): number | undefined {
  const raw = param(name, q, key);
  return raw === undefined ? undefined : Number(raw);
}

export function timeParam(name: DataEndpointName, q: Query, key: string): number | undefined {
  const raw = param(name, q, key);
  if (raw === undefined) return undefined;
  const t = parseTimeParam(raw);
  if (Number.isNaN(t)) throw new InvalidRequestError(`${key} must be an ISO 8601 date or a Unix timestamp`);
  return t;
}

export function idsParam(name: DataEndpointName, q: Query, key: string): number[] | undefined {
  const raw = param(name, q, key);
  if (raw === undefined) return undefined;
  const ids = raw.split(',').map(Number);
  if (!ids.every((x) => Number.isInteger(x) && x > 0)) throw new InvalidRequestError(`${key} must be a comma-separated list of ids`);
  return ids;
}

export function boolParam(name: DataEndpointName, q: Query, key: string): boolean {
  return param(name, q, key) === 'true';
}
