/** report.json keys that are data, not field names: symbols, and parameters echoed as the config spells them. */
const DATA_KEYS = [/^\.fees$/, /^\.by_symbol$/, /^\.meta\.strategies\[\d+\]\.(params|overlays)/, /^\.settings\.queue_model\.params/];

/** Every field name in a report.json document that is not snake_case, with its path (recursive). */
export function nonSnakeKeys(v: unknown, path = ''): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => nonSnakeKeys(x, `${path}[${i}]`));
  if (v === null || typeof v !== 'object') return [];
  if (DATA_KEYS.some((re) => re.test(path))) return /\.(fees|by_symbol)$/.test(path) ? Object.values(v).flatMap((x) => nonSnakeKeys(x, `${path}.*`)) : [];
  return Object.entries(v).flatMap(([k, x]) => [...(/^[a-z0-9]+(_[a-z0-9]+)*$/.test(k) ? [] : [`${path}.${k}`]), ...nonSnakeKeys(x, `${path}.${k}`)]);
}
