/**
 * Turns a CDP deep-serialized value (Runtime.evaluate serializationOptions {serialization:'deep'},
 * computed by V8 itself, so page code cannot tamper with it) into JSON — or says precisely why it
 * cannot. JSON.stringify would silently turn a DOM node into {}, a Map into {} and NaN into null;
 * an agent would then act on a wrong value. Here only JSON semantics that lose nothing apply
 * (undefined object members are left out, undefined in arrays becomes null, -0 becomes 0, a Date
 * becomes its ISO string, as JSON.stringify does); everything else is an error naming the path.
 */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export type Converted = { ok: true; value: Json | undefined } | { ok: false; path: string; why: string };

interface Deep {
  type?: unknown;
  value?: unknown;
  weakLocalObjectReference?: unknown;
}

const HINTS: Readonly<Record<string, string>> = {
  node: 'a DOM node (return el.textContent, el.outerHTML or el.value instead)',
  window: 'a window object',
  function: 'a function',
  symbol: 'a symbol',
  bigint: 'a BigInt (return String(value) instead)',
  map: 'a Map (return Object.fromEntries(map) instead)',
  set: 'a Set (return [...set] instead)',
  regexp: 'a RegExp (return String(re) instead)',
  error: 'an Error object (return err.message instead)',
  promise: 'a Promise nested in the result (await it first)',
  weakmap: 'a WeakMap',
  weakset: 'a WeakSet',
  generator: 'a generator',
  proxy: 'a Proxy',
  typedarray: 'a typed array (return Array.from(value) instead)',
  arraybuffer: 'an ArrayBuffer',
  htmlcollection: 'an HTMLCollection (return [...collection].map(el => el.textContent) instead)',
  nodelist: 'a NodeList (return [...list].map(el => el.textContent) instead)',
  iterator: 'an iterator (spread it into an array first)',
};

function describeType(type: string): string {
  return HINTS[type] ?? `a value of type ${type}`;
}

function join(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Objects met so far by their weakLocalObjectReference: V8 sends a repeated object only once. */
interface Seen {
  inProgress: Set<unknown>;
  done: Map<unknown, Json>;
}

function convert(value: unknown, path: string, inArray: boolean, seen: Seen): Converted {
  const deep = (typeof value === 'object' && value !== null ? value : {}) as Deep;
  const type = typeof deep.type === 'string' ? deep.type : 'unknown';
  switch (type) {
    case 'undefined':
      return { ok: true, value: inArray ? null : undefined };
    case 'null':
      return { ok: true, value: null };
    case 'string':
    case 'boolean':
      return { ok: true, value: deep.value as string | boolean };
    case 'number': {
      if (typeof deep.value === 'number') return { ok: true, value: deep.value };
      if (deep.value === '-0') return { ok: true, value: 0 };
      return { ok: false, path, why: `${String(deep.value)}, which JSON cannot represent (return String(value) instead)` };
    }
    case 'date':
      return { ok: true, value: String(deep.value) };
    case 'array':
    case 'object': {
      const ref = deep.weakLocalObjectReference;
      if (deep.value === undefined) {
        if (ref === undefined) return { ok: false, path, why: 'nested too deeply (more than 20 levels)' };
        const earlier = seen.done.get(ref);
        // The same object twice is fine (JSON repeats it); an object containing itself is not.
        if (earlier !== undefined && !seen.inProgress.has(ref)) return { ok: true, value: earlier };
        return { ok: false, path, why: 'a circular reference' };
      }
      if (ref !== undefined) seen.inProgress.add(ref);
      const converted = convertContainer(type, deep.value, path, seen);
      if (ref !== undefined) {
        seen.inProgress.delete(ref);
        if (converted.ok && converted.value !== undefined) seen.done.set(ref, converted.value);
      }
      return converted;
    }
    default:
      return { ok: false, path, why: describeType(type) };
  }
}

function convertContainer(type: string, value: unknown, path: string, seen: Seen): Converted {
  const list = Array.isArray(value) ? (value as unknown[]) : [];
  if (type === 'array') {
    const items: Json[] = [];
    for (const [index, item] of list.entries()) {
      const converted = convert(item, join(path, index), true, seen);
      if (!converted.ok) return converted;
      items.push(converted.value ?? null);
    }
    return { ok: true, value: items };
  }
  const out: { [key: string]: Json } = {};
  for (const entry of list) {
    const [key, item] = Array.isArray(entry) ? (entry as unknown[]) : [];
    if (typeof key !== 'string') return { ok: false, path, why: 'an object with a non-string key' };
    const converted = convert(item, join(path, key), false, seen);
    if (!converted.ok) return converted;
    if (converted.value !== undefined) out[key] = converted.value;
  }
  return { ok: true, value: out };
}

/** The JSON form of a deep-serialized value; `value: undefined` means the result was undefined. */
export function fromDeepSerialized(value: unknown): Converted {
  return convert(value, 'result', false, { inProgress: new Set(), done: new Map() });
}
