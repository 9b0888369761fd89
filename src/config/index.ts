/** Bot config: YAML → ${ENV} secrets → strict schema → strategy params → frozen BotConfig; JSON Schema for editors. */
export { loadConfig, parseConfig, type BotConfig, type LoadConfigOptions, type LoadedStrategyEntry } from './load.ts';
export { botConfigSchema, type BotConfigParsed, type EmbeddedVenueConfig, type RemoteVenueConfig, type StrategyEntryConfig, type VenueConfigSection } from './schema.ts';
export { checkStrategyParams, isStrategyPath, type StrategyLookup } from './strategy-params.ts';
export { substituteEnv, type ConfigEnv } from './env.ts';
export { deepFreeze, type DeepReadonly } from './freeze.ts';
export { configInvalid, problemsFromZod, type ConfigProblem } from './issues.ts';
export { formatPath } from './path.ts';
export { configJsonSchema } from './json-schema.ts';
export { literalSecretPaths, weakTokenReason, MIN_CONTROL_TOKEN_CHARS } from './secrets.ts';
